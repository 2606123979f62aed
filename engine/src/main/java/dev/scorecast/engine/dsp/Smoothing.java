package dev.scorecast.engine.dsp;

/** The one-pole smoothing every envelope follower, parameter smoother and gain computer here uses. */
public final class Smoothing {
    private Smoothing() {}

    /**
     * The coefficient {@code a} of {@code y += a * (x - y)}, run once a sample at {@code rate} Hz, that
     * covers 1 - 1/e of a step in {@code ms} milliseconds.
     */
    public static double coefficient(double ms, int rate) {
        return 1 - Math.exp(-1000.0 / (ms * rate));
    }
}
