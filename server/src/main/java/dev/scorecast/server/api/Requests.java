package dev.scorecast.server.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.scorecast.engine.error.InvalidParameter;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.regex.Pattern;

/** What every handler needs to read a request: the JSON mapper and the size cap for JSON bodies. */
public record Requests(ObjectMapper mapper, long maxJsonBytes) {
    private static final Pattern SHA256 = Pattern.compile("[0-9a-fA-F]{64}");
    private static final Pattern CRC32C = Pattern.compile("[0-9a-fA-F]{8}");

    /** The request body as a JSON object, read with its size counted (never trusted from headers). */
    public JsonFields body(Context ctx) {
        try {
            return JsonFields.parse(mapper, ctx.req().getInputStream(), maxJsonBytes, "request body");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A client-supplied SHA-256: absent, or 64 hex digits. */
    public static String optionalSha256(String value, String field) {
        return optionalHex(value, field, SHA256, "SHA-256 as 64 hexadecimal digits");
    }

    /** A client-supplied CRC32C: absent, or 8 hex digits (big-endian, as {@code crc32c} prints it). */
    public static String optionalCrc32c(String value, String field) {
        return optionalHex(value, field, CRC32C, "CRC32C as 8 hexadecimal digits");
    }

    private static String optionalHex(String value, String field, Pattern format, String expected) {
        if (value == null || value.isBlank()) {
            return null;
        }
        if (!format.matcher(value.strip()).matches()) {
            throw new InvalidParameter(field, field + " must be the chunk's " + expected + ".");
        }
        return value.strip();
    }

    /** A client file name kept only as a label: trimmed, printable, at most 255 characters. */
    public static void checkFileName(JsonFields fields, String field, String name) {
        if (name == null) {
            return;
        }
        if (name.length() > 255 || name.chars().anyMatch(Character::isISOControl)) {
            fields.problem(field, field + " must be at most 255 printable characters.");
        }
    }
}
