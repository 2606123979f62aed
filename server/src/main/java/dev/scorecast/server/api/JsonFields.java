package dev.scorecast.server.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.ScorecastException.FieldProblem;
import dev.scorecast.engine.error.TooLarge;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a JSON object and its fields, collecting every problem so one answer names them all.
 * Typical use: {@code var f = JsonFields.parse(...); String id = f.requiredString("upload_id"); f.check();}
 */
public final class JsonFields {
    private final ObjectNode object;
    private final String where;
    private final List<FieldProblem> problems = new ArrayList<>();

    private JsonFields(ObjectNode object, String where) {
        this.object = object;
        this.where = where;
    }

    /** Parses at most {@code maxBytes} of {@code body} as one JSON object; {@code where} names it in errors. */
    public static JsonFields parse(ObjectMapper mapper, InputStream body, long maxBytes, String where) {
        byte[] bytes;
        try {
            bytes = body.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (bytes.length > maxBytes) {
            throw new TooLarge(
                    where, "The " + where + " is larger than " + maxBytes + " bytes; send a smaller JSON object.");
        }
        if (bytes.length == 0) {
            throw new InvalidParameter(where, "The " + where + " is empty; send a JSON object.");
        }
        JsonNode node;
        try {
            node = mapper.readTree(bytes);
        } catch (JsonProcessingException e) {
            // Jackson's own limits (nesting depth, number length) come without a location.
            String at = e.getLocation() == null
                    ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column "
                            + e.getLocation().getColumnNr();
            throw new InvalidParameter(
                    where,
                    "The " + where + " is not valid JSON (" + e.getOriginalMessage() + at + "); send a JSON object.");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!(node instanceof ObjectNode object)) {
            throw new InvalidParameter(
                    where,
                    "The " + where + " must be a JSON object like {\"name\": value}, not " + describe(node) + ".");
        }
        return new JsonFields(object, where);
    }

    public String requiredString(String name) {
        JsonNode value = object.get(name);
        if (value == null || value.isNull()) {
            problems.add(new FieldProblem(name, name + " is required in the " + where + "."));
            return null;
        }
        if (!value.isTextual() || value.asText().isBlank()) {
            problems.add(new FieldProblem(name, name + " must be a non-empty string, not " + describe(value) + "."));
            return null;
        }
        return value.asText();
    }

    public String optionalString(String name) {
        JsonNode value = object.get(name);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            problems.add(new FieldProblem(name, name + " must be a string, not " + describe(value) + "."));
            return null;
        }
        return value.asText();
    }

    public Long requiredLong(String name) {
        Long value = optionalLong(name);
        if (value == null && !hasProblem(name)) {
            problems.add(new FieldProblem(name, name + " is required in the " + where + "."));
        }
        return value;
    }

    public Long optionalLong(String name) {
        JsonNode value = object.get(name);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            problems.add(new FieldProblem(name, name + " must be a whole number, not " + describe(value) + "."));
            return null;
        }
        return value.asLong();
    }

    public Integer requiredInt(String name) {
        Long value = requiredLong(name);
        return value == null ? null : toInt(name, value);
    }

    public Integer optionalInt(String name) {
        Long value = optionalLong(name);
        return value == null ? null : toInt(name, value);
    }

    /** {@code fallback} when absent or null; a problem when it is not true or false. */
    public boolean optionalBoolean(String name, boolean fallback) {
        JsonNode value = object.get(name);
        if (value == null || value.isNull()) {
            return fallback;
        }
        if (!value.isBoolean()) {
            problems.add(new FieldProblem(name, name + " must be true or false, not " + describe(value) + "."));
            return fallback;
        }
        return value.asBoolean();
    }

    /** The raw value, or null when absent; for values handed to a parser of their own (a plan). */
    public JsonNode optionalNode(String name) {
        JsonNode value = object.get(name);
        return value == null || value.isNull() ? null : value;
    }

    public JsonFields requiredObject(String name) {
        JsonNode value = object.get(name);
        if (value instanceof ObjectNode nested) {
            return new JsonFields(nested, name);
        }
        problems.add(new FieldProblem(
                name,
                value == null || value.isNull()
                        ? name + " is required in the " + where + ": a JSON object."
                        : name + " must be a JSON object, not " + describe(value) + "."));
        return null;
    }

    /** Adds a problem found by the caller (a range check, a format check). */
    public void problem(String field, String message) {
        problems.add(new FieldProblem(field, message));
    }

    /** Merges a nested object's problems into this one's. */
    public void absorb(JsonFields nested) {
        if (nested != null) {
            problems.addAll(nested.problems);
        }
    }

    /** Throws one {@link InvalidParameter} naming every problem found so far. */
    public void check() {
        if (!problems.isEmpty()) {
            throw InvalidParameter.of(problems);
        }
    }

    private Integer toInt(String name, long value) {
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            problems.add(new FieldProblem(name, name + " is out of range."));
            return null;
        }
        return (int) value;
    }

    private boolean hasProblem(String name) {
        return problems.stream().anyMatch(p -> p.field().equals(name));
    }

    private static String describe(JsonNode node) {
        return switch (node.getNodeType()) {
            case STRING -> "the string \"" + abbreviate(node.asText()) + "\"";
            case NUMBER -> "the number " + node.asText();
            case BOOLEAN -> node.asText();
            case NULL, MISSING -> "null";
            case ARRAY -> "an array";
            case OBJECT, POJO -> "an object";
            case BINARY -> "binary data";
        };
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }
}
