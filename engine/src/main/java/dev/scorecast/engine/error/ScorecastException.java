package dev.scorecast.engine.error;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything a caller can get wrong, in one small family that knows nothing of HTTP.
 * The server maps each kind to a status code in one place; job failures store {@link #code()}
 * so that a failed job explains itself the same way a refused request does.
 */
public abstract sealed class ScorecastException extends RuntimeException
        permits InvalidParameter,
                NotFound,
                WrongState,
                TooLarge,
                UnsupportedMedia,
                Unprocessable,
                Busy,
                Overloaded,
                InsufficientStorage {

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

    /**
     * Rebuilds a failure from its stored code, field and message (a failed job keeps those), so it
     * is reported exactly as the original was. Empty for codes outside this family.
     */
    public static Optional<ScorecastException> restore(String code, String field, String message) {
        ScorecastException restored = switch (code == null ? "" : code) {
            case "invalid_parameter" -> new InvalidParameter(field, message);
            case "not_found" -> new NotFound(field, message);
            case "wrong_state" -> new WrongState(field, message);
            case "too_large" -> new TooLarge(field, message);
            case "unsupported_media" -> new UnsupportedMedia(field, message);
            case "unprocessable" -> new Unprocessable(field, message);
            case "busy" -> new Busy(message, Duration.ofSeconds(30));
            case "insufficient_storage" -> new InsufficientStorage(field, message);
            case "overloaded" -> new Overloaded(message, Duration.ofSeconds(30));
            default -> null;
        };
        return Optional.ofNullable(restored);
    }

    /** One field and what is wrong with it. */
    public record FieldProblem(String field, String message) {}
}
