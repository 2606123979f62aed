package dev.scorecast.server;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** Virtual time for tests: it stands still until the test sets or moves it. */
public class VirtualClock extends Clock {
    private volatile Instant now;

    public VirtualClock(Instant start) {
        this.now = start;
    }

    /** Moves the time to {@code instant}. */
    public void set(Instant instant) {
        now = instant;
    }

    /** Moves the time on by {@code step}. */
    public void advance(Duration step) {
        now = now.plus(step);
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
