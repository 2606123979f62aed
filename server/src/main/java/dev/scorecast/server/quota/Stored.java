package dev.scorecast.server.quota;

/**
 * A blob kept for a user, to be counted in their share ({@link QuotaGuard#charge}): its key, its
 * size, and the video or the execution it belongs to, with which its charge goes.
 */
public record Stored(String key, long bytes, String videoId, String executionId) {
    public Stored {
        if (key == null || bytes < 0 || (videoId == null) == (executionId == null)) {
            throw new IllegalArgumentException("a stored blob has a key, a size and one owner object: " + key);
        }
    }

    /** A blob that goes with video {@code videoId}: its audio, thumbnails, analyses and plans. */
    public static Stored forVideo(String videoId, String key, long bytes) {
        return new Stored(key, bytes, videoId, null);
    }

    /** A blob that goes with execution {@code executionId}: its plan, outputs and failure report. */
    public static Stored forExecution(String executionId, String key, long bytes) {
        return new Stored(key, bytes, null, executionId);
    }
}
