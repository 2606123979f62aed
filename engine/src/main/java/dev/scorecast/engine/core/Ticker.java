package dev.scorecast.engine.core;

import java.time.Duration;

/**
 * Elapsed time in nanoseconds, for durations and deadlines only: its zero means nothing, and it never
 * jumps with the wall clock. What is written as a date or compared with one comes from a
 * {@link java.time.Clock} instead. Code takes a ticker rather than calling {@link System#nanoTime()}, so a
 * test can run it on virtual time ({@link Manual}).
 */
@FunctionalInterface
public interface Ticker {
    /** The JVM's monotonic clock: the one place {@link System#nanoTime()} is read. */
    Ticker SYSTEM = System::nanoTime;

    /** Nanoseconds since an arbitrary origin; only differences mean something. */
    long nanos();

    /** The time elapsed since {@code startNanos}, a reading of this ticker. */
    default Duration since(long startNanos) {
        return Duration.ofNanos(nanos() - startNanos);
    }

    /** Virtual time for tests: stands still until moved. */
    final class Manual implements Ticker {
        private volatile long nanos;

        public Manual() {
            this(0);
        }

        public Manual(long startNanos) {
            this.nanos = startNanos;
        }

        @Override
        public long nanos() {
            return nanos;
        }

        /** Moves the time on by {@code step}. */
        public synchronized void advance(Duration step) {
            nanos += step.toNanos();
        }
    }
}
