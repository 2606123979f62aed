package dev.scorecast.engine.error;

/** No such resource for this caller. Another user's resource is reported the same way. */
public final class NotFound extends ScorecastException {
    public NotFound(String field, String message) {
        super("not_found", field, message, null);
    }
}
