package dev.scorecast.server.webhooks;

/**
 * What one attempt to deliver came to: the receiver's status code (null when there was no answer),
 * or why it failed, how long it took, and the start of the answer's body.
 */
public record Attempt(Integer statusCode, String error, long durationMillis, String response) {
    /** A 2xx answer: delivered. Everything else, a redirect included, is tried again later. */
    public boolean delivered() {
        return statusCode != null && statusCode >= 200 && statusCode < 300;
    }

    static Attempt failed(String error, long durationMillis) {
        return new Attempt(null, error, durationMillis, null);
    }
}
