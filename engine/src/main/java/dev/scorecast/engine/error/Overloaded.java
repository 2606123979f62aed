package dev.scorecast.engine.error;

import java.time.Duration;

/**
 * The server as a whole has more of this work than it takes on at once (not this caller's share,
 * which is {@link Busy}); nothing was done, and the same call may succeed after {@link #retryAfter()}.
 */
public final class Overloaded extends ScorecastException {
    private final Duration retryAfter;

    public Overloaded(String message, Duration retryAfter) {
        super("overloaded", null, message, null);
        this.retryAfter = retryAfter;
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
