package dev.scorecast.server.webhooks;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * When a failed delivery is tried again: exponential backoff with jitter. After attempt {@code n}
 * the next one waits between half and all of {@code min(30 s x 2^(n-1), 1 h)}: 15-30 s, 30-60 s,
 * 1-2 min, ... up to 30-60 min (45 on average), so that a receiver that was down gets about 38 attempts in a day,
 * and many deliveries that failed together (the receiver's outage) do not all come back at once.
 */
public final class Backoff {
    static final Duration FIRST = Duration.ofSeconds(30);
    static final Duration CAP = Duration.ofHours(1);

    private Backoff() {}

    /** The longest wait after attempt {@code attempt} (1 for the first). */
    public static Duration ceiling(int attempt) {
        int doublings = Math.min(Math.max(0, attempt - 1), 20);
        long millis = FIRST.toMillis() << doublings;
        return Duration.ofMillis(Math.min(millis, CAP.toMillis()));
    }

    /** The wait after attempt {@code attempt}: uniform between half the ceiling and the ceiling. */
    public static Duration after(int attempt, RandomGenerator random) {
        long ceiling = ceiling(attempt).toMillis();
        return Duration.ofMillis(ceiling / 2 + random.nextLong(ceiling / 2 + 1));
    }
}
