package dev.scorecast.engine.error;

import java.time.Duration;

/** Too much already running for this caller; try again after {@link #retryAfter()}. */
public final class Busy extends ScorecastException {
    private final Duration retryAfter;

    public Busy(String message, Duration retryAfter) {
        super("busy", null, message, null);
        this.retryAfter = retryAfter;
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
