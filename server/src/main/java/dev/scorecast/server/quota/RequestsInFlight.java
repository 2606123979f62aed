package dev.scorecast.server.quota;

import dev.scorecast.engine.error.Busy;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many requests each user has in flight on this node, at most {@code max}: one client cannot
 * take every handler (a script opening hundreds of slow requests at once) while others wait. A
 * request past the limit is answered 429 {@code busy} with Retry-After before its handler runs.
 * Counts are per node: behind a load balancer of N api nodes a user can have up to N x max.
 */
public final class RequestsInFlight {
    private final int max;
    private final ConcurrentHashMap<String, AtomicInteger> counts = new ConcurrentHashMap<>();

    public RequestsInFlight(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("at least one request in flight, was " + max);
        }
        this.max = max;
    }

    /** Counts one more request of {@code user}, or refuses it (and counts nothing) past the limit. */
    public void enter(String user) {
        AtomicInteger count = counts.computeIfAbsent(user, u -> new AtomicInteger());
        if (count.incrementAndGet() > max) {
            count.decrementAndGet();
            throw new Busy(
                    "You have " + max + " requests in progress on this server (at most " + max
                            + " at once, SCORECAST_MAX_REQUESTS_IN_FLIGHT); wait for one to end and try again.",
                    Duration.ofSeconds(1));
        }
    }

    /** The request {@link #enter}ed for {@code user} has ended. (Counters stay: one small object per user who ever called.) */
    public void leave(String user) {
        AtomicInteger count = counts.get(user);
        if (count != null) {
            count.decrementAndGet();
        }
    }

    public int inFlight(String user) {
        AtomicInteger count = counts.get(user);
        return count == null ? 0 : count.get();
    }
}
