package dev.scorecast.engine.core;

/** A stretch of time in seconds, {@code start < end}. */
public record Span(double start, double end) {
    public Span {
        if (!(end > start)) {
            throw new IllegalArgumentException("need start < end: " + start + ", " + end);
        }
    }

    public double length() {
        return end - start;
    }
}
