package dev.scorecast.server.webhooks;

import java.util.concurrent.ConcurrentHashMap;

/**
 * How many delivery attempts each user's endpoints get from this node: a token bucket per user of
 * {@code perMinute} tokens, refilled continuously. A user over it waits (their deliveries stay due,
 * and go in the next rounds); other users' deliveries are not held up. Time is the system's
 * monotonic clock: this paces real sending, whatever time the service reads.
 */
final class UserRate {
    private final int perMinute;
    private final ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();

    UserRate(int perMinute) {
        this.perMinute = perMinute;
    }

    /** Takes one attempt for {@code user}; false when none is left this minute. */
    boolean tryTake(String user) {
        return buckets.computeIfAbsent(user, u -> new Bucket(perMinute)).tryTake(perMinute);
    }

    private static final class Bucket {
        private double tokens;
        private long last = System.nanoTime();

        Bucket(int capacity) {
            this.tokens = capacity;
        }

        synchronized boolean tryTake(int perMinute) {
            long now = System.nanoTime();
            tokens = Math.min(perMinute, tokens + (now - last) * perMinute / 60e9);
            last = now;
            if (tokens < 1) {
                return false;
            }
            tokens -= 1;
            return true;
        }
    }
}
