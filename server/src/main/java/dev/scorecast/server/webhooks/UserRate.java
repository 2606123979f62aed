package dev.scorecast.server.webhooks;

import dev.scorecast.engine.core.Ticker;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How many delivery attempts each user's endpoints get from this node: a token bucket per user of
 * {@code perMinute} tokens, refilled continuously. A user over it waits (their deliveries stay due,
 * and go in the next rounds); other users' deliveries are not held up. Time is a monotonic
 * ticker (the system's in service): this paces real sending, whatever time the service reads.
 */
final class UserRate {
    private final int perMinute;
    private final Ticker ticker;
    private final ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();

    UserRate(int perMinute, Ticker ticker) {
        this.perMinute = perMinute;
        this.ticker = ticker;
    }

    /** Takes one attempt for {@code user}; false when none is left this minute. */
    boolean tryTake(String user) {
        return buckets.computeIfAbsent(user, u -> new Bucket(perMinute, ticker.nanos()))
                .tryTake(perMinute, ticker);
    }

    private static final class Bucket {
        private double tokens;
        private long last;

        Bucket(int capacity, long nowNanos) {
            this.tokens = capacity;
            this.last = nowNanos;
        }

        synchronized boolean tryTake(int perMinute, Ticker ticker) {
            long now = ticker.nanos();
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
