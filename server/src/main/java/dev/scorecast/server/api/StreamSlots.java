package dev.scorecast.server.api;

import dev.scorecast.engine.error.Busy;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Event streams each user holds open on this node, at most {@code max}: an open stream costs a
 * connection and a watch, so one client opening hundreds cannot take them all. Past the limit, 429.
 */
final class StreamSlots {
    private final int max;
    private final ConcurrentHashMap<String, AtomicInteger> open = new ConcurrentHashMap<>();
    private final AtomicInteger total = new AtomicInteger();

    StreamSlots(int max) {
        this.max = max;
    }

    void enter(String user) {
        AtomicInteger count = open.computeIfAbsent(user, u -> new AtomicInteger());
        if (count.incrementAndGet() > max) {
            count.decrementAndGet();
            throw new Busy(
                    "You have " + max + " event streams open on this server (at most " + max
                            + ", SCORECAST_EVENTS_MAX_STREAMS); close one (a stream ends by itself when its job ends) and try again.",
                    Duration.ofSeconds(5));
        }
        total.incrementAndGet();
    }

    void leave(String user) {
        AtomicInteger count = open.get(user);
        if (count != null) {
            count.decrementAndGet();
            total.decrementAndGet();
        }
    }

    /** Streams open on this node, all users together. */
    int open() {
        return total.get();
    }
}
