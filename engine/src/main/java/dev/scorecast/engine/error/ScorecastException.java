package dev.scorecast.engine.error;

import java.util.List;
import java.util.Map;

/**
 * Everything a caller can get wrong, in one small family that knows nothing of HTTP.
 * The server maps each kind to a status code in one place; job failures store {@link #code()}
 * so that a failed job explains itself the same way a refused request does.
 */
public abstract sealed class ScorecastException extends RuntimeException
        permits InvalidParameter, NotFound, WrongState, TooLarge, UnsupportedMedia, Unprocessable, Busy {

    private final String code;
    private final String field;

    protected ScorecastException(String code, String field, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
        this.field = field;
    }

    /** Machine-readable code, stable across releases (e.g. {@code invalid_parameter}). */
    public String code() {
        return code;
    }

    /** The request field at fault, or null when the problem is not one field's. */
    public String field() {
        return field;
    }

    /** Further problems reported together with this one (validators report every bad field at once). */
    public List<FieldProblem> problems() {
        return List.of();
    }

    /** Machine-readable facts that help a client recover (e.g. the missing chunk indices). */
    public Map<String, Object> details() {
        return Map.of();
    }

    /** One field and what is wrong with it. */
    public record FieldProblem(String field, String message) {}
}
