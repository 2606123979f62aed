package dev.scorecast.engine.error;

/**
 * Storing this would pass the caller's storage quota, or the server's disk is nearly full; nothing
 * was written. The message says which, and what to delete or when to try again.
 */
public final class InsufficientStorage extends ScorecastException {
    public InsufficientStorage(String field, String message) {
        super("insufficient_storage", field, message, null);
    }
}
