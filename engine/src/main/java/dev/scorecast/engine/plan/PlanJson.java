package dev.scorecast.engine.plan;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.type.LogicalType;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.ScorecastException.FieldProblem;
import dev.scorecast.engine.io.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Plans to and from JSON: snake_case names, unknown fields ignored, and every way a client's JSON
 * can be wrong (not JSON, a string where a number belongs, a null in a list) reported as
 * {@link InvalidParameter} naming the field's path ({@code sections[2].tempo}), never as a Jackson
 * exception. Whether the values make sense is {@link PlanValidator}'s job.
 */
public final class PlanJson {
    private static final ObjectMapper MAPPER = build();

    private PlanJson() {}

    /** The mapper plans are read and written with (a shared, configured instance: do not reconfigure it). */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    public static String write(Plan plan) {
        try {
            return MAPPER.writeValueAsString(plan);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot write a plan", e);
        }
    }

    public static Plan parse(String json) {
        return parse(json, false);
    }

    /**
     * A plan for the live player, where music has no cuts to meet: a section may be given by its
     * tempo, meter and bars alone. A missing {@code start} is where the section before ends (0 for
     * the first), a missing {@code end} is where its bars end, and a missing {@code duration} the
     * last section's end. Given times are kept, and checked by {@link PlanValidator#validateLive}.
     */
    public static Plan parseLive(String json) {
        return parse(json, true);
    }

    private static Plan parse(String json, boolean live) {
        if (json == null || json.isBlank()) {
            throw new InvalidParameter(
                    "plan", "the plan is empty; send the plan object returned by generate, edited as you like");
        }
        JsonNode tree;
        try {
            tree = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            var where = e.getLocation();
            throw new InvalidParameter(
                    "plan",
                    "the plan is not valid JSON"
                            + (where == null
                                    ? ""
                                    : " (line " + where.getLineNr() + ", column " + where.getColumnNr() + ")")
                            + ": " + e.getOriginalMessage());
        }
        if (tree == null || !tree.isObject()) {
            throw new InvalidParameter("plan", "the plan must be a JSON object, not " + describe(tree));
        }
        List<FieldProblem> nulls = new ArrayList<>();
        findNullsInLists(tree, "", nulls);
        fillDerived(tree);
        if (live) {
            fillLiveTimes((ObjectNode) tree);
        }
        if (!nulls.isEmpty()) {
            throw InvalidParameter.of(nulls);
        }
        try {
            return MAPPER.readerFor(Plan.class).readValue(tree);
        } catch (JsonMappingException e) {
            String field = path(e.getPath());
            throw new InvalidParameter(field.isEmpty() ? "plan" : field, message(field, e, tree));
        } catch (JsonProcessingException e) {
            String field = e.getProcessor() instanceof JsonParser p ? path(p.getParsingContext()) : "";
            throw new InvalidParameter(
                    field.isEmpty() ? "plan" : field,
                    (field.isEmpty() ? "the plan" : field) + " cannot be read: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new InvalidParameter("plan", "the plan cannot be read: " + e.getMessage());
        }
    }

    /**
     * A section's {@code residual} (from its times, tempo and bars) and {@code index} (its place)
     * are derived, and {@link PlanValidator} recomputes both, so a plan may leave them out, or null.
     */
    private static void fillDerived(JsonNode tree) {
        if (tree.get("sections") instanceof ArrayNode sections) {
            for (int i = 0; i < sections.size(); i++) {
                if (sections.get(i) instanceof ObjectNode object) {
                    if (!object.hasNonNull("residual")) {
                        object.put("residual", 0.0);
                    }
                    if (!object.hasNonNull("index")) {
                        object.put("index", i);
                    }
                }
            }
        }
    }

    /** See {@link #parseLive}; a section whose tempo, meter or bars cannot be read stops the filling there. */
    private static void fillLiveTimes(ObjectNode plan) {
        if (!(plan.get("sections") instanceof ArrayNode sections)) {
            return;
        }
        double at = 0;
        for (JsonNode node : sections) {
            if (!(node instanceof ObjectNode section)) {
                return;
            }
            if (!section.hasNonNull("start")) {
                section.put("start", at);
            }
            if (!section.hasNonNull("end")) {
                double bars = barsSeconds(section);
                JsonNode start = section.get("start");
                if (Double.isNaN(bars) || !start.isNumber()) {
                    return;
                }
                section.put("end", Math.round((start.asDouble() + bars) * 1e6) / 1e6);
            }
            if (!section.get("end").isNumber()) {
                return;
            }
            at = section.get("end").asDouble();
        }
        if (!plan.hasNonNull("duration") && !sections.isEmpty()) {
            plan.put("duration", at);
        }
    }

    /** Seconds the section's bars of its meter last at its tempo, or NaN when one of them is missing or odd. */
    private static double barsSeconds(ObjectNode section) {
        JsonNode tempo = section.get("tempo");
        JsonNode bars = section.get("bars");
        JsonNode meter = section.get("meter");
        if (tempo == null
                || !tempo.isNumber()
                || !(tempo.asDouble() > 0)
                || bars == null
                || !bars.isIntegralNumber()
                || meter == null
                || !meter.isTextual()
                || !meter.asText().matches("[1-9][0-9]?/[0-9]{1,2}")) {
            return Double.NaN;
        }
        int beats = Integer.parseInt(meter.asText().substring(0, meter.asText().indexOf('/')));
        return bars.asLong() * beats * 60.0 / tempo.asDouble();
    }

    private static ObjectMapper build() {
        // Stricter than Json's: a plan comes from a client, and a value of the wrong kind ("120" for
        // a tempo, 1 for true, a null number) must be a field error, not quietly coerced.
        JsonMapper mapper = Json.builder()
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
                .build();
        for (LogicalType type : List.of(LogicalType.Integer, LogicalType.Float, LogicalType.Boolean)) {
            mapper.coercionConfigFor(type)
                    .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
        }
        mapper.coercionConfigFor(LogicalType.Boolean).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        return mapper;
    }

    private static void findNullsInLists(JsonNode node, String at, List<FieldProblem> problems) {
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String here = at + "[" + i + "]";
                if (node.get(i).isNull()) {
                    problems.add(new FieldProblem(here, here + " is null; remove it or give a value"));
                } else {
                    findNullsInLists(node.get(i), here, problems);
                }
            }
        } else if (node.isObject()) {
            for (var entry : node.properties()) {
                findNullsInLists(entry.getValue(), at.isEmpty() ? entry.getKey() : at + "." + entry.getKey(), problems);
            }
        }
    }

    private static String message(String field, JsonMappingException e, JsonNode tree) {
        String name = field.isEmpty() ? "the plan" : field;
        JsonNode found = tree.at(pointer(e.getPath()));
        if (e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
            return name + " must be " + expected(mismatch.getTargetType()) + ", not "
                    + describe(found.isMissingNode() ? null : found);
        }
        return name + " cannot be read (" + describe(found.isMissingNode() ? null : found) + "): "
                + e.getOriginalMessage();
    }

    private static String expected(Class<?> type) {
        if (type == double.class || type == Double.class || type == float.class || type == Float.class) {
            return "a number";
        }
        if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
            return "a whole number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "a list";
        }
        if (Map.class.isAssignableFrom(type) || type.isRecord()) {
            return "an object";
        }
        return "a " + type.getSimpleName();
    }

    private static String describe(JsonNode node) {
        if (node == null || node.isNull()) {
            return "null";
        }
        if (node.isTextual()) {
            String text = node.asText();
            return "the string \"" + (text.length() > 40 ? text.substring(0, 40) + "..." : text) + "\"";
        }
        if (node.isNumber()) {
            return "the number " + node.asText();
        }
        if (node.isBoolean()) {
            return node.asText();
        }
        if (node.isArray()) {
            return "a list";
        }
        return node.isObject() ? "an object" : node.getNodeType().name().toLowerCase(Locale.ROOT);
    }

    /** sections[2].instruments.beats.program from Jackson's reference chain. */
    static String path(List<JsonMappingException.Reference> references) {
        StringBuilder out = new StringBuilder();
        for (var ref : references) {
            if (ref.getFieldName() != null) {
                out.append(out.isEmpty() ? "" : ".").append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                out.append('[').append(ref.getIndex()).append(']');
            }
        }
        return out.toString();
    }

    private static JsonPointer pointer(List<JsonMappingException.Reference> references) {
        JsonPointer pointer = JsonPointer.empty();
        for (var ref : references) {
            if (ref.getFieldName() != null) {
                pointer = pointer.appendProperty(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                pointer = pointer.appendIndex(ref.getIndex());
            }
        }
        return pointer;
    }

    private static String path(JsonStreamContext context) {
        List<String> parts = new ArrayList<>();
        for (JsonStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
            parts.addFirst(
                    c.inArray()
                            ? "[" + Math.max(0, c.getCurrentIndex()) + "]"
                            : c.getCurrentName() == null ? "" : "." + c.getCurrentName());
        }
        String joined = String.join("", parts);
        return joined.startsWith(".") ? joined.substring(1) : joined;
    }
}
