package dev.scorecast.engine.error;

/** A size limit was exceeded: a chunk, a file, a request part. */
public final class TooLarge extends ScorecastException {
    public TooLarge(String field, String message) {
        super("too_large", field, message, null);
    }
}
