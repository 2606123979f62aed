package dev.scorecast.engine.analysis;

import java.util.Arrays;

/**
 * Per-frame values averaged into fixed hops of time. Grows with the video's length by one sum and
 * one count per hop, which is all the memory a long video costs the curves.
 */
final class HopSeries {
    private final double hopSeconds;
    private double[] sums = new double[64];
    private int[] counts = new int[64];
    private int used;

    HopSeries(double hopSeconds) {
        this.hopSeconds = hopSeconds;
    }

    void add(double timeSeconds, double value) {
        int hop = (int) Math.floor(timeSeconds / hopSeconds + 1e-9);
        if (hop < 0) {
            return;
        }
        if (hop >= sums.length) {
            int size = Math.max(hop + 1, sums.length * 2);
            sums = Arrays.copyOf(sums, size);
            counts = Arrays.copyOf(counts, size);
        }
        sums[hop] += value;
        counts[hop]++;
        used = Math.max(used, hop + 1);
    }

    /**
     * The mean of each of the first {@code hops} hops. A hop no frame fell in (a low frame rate,
     * a gap) gets the straight line between its nearest filled neighbours; hops before the first
     * or after the last filled one hold its value; with no values at all, zeros.
     */
    double[] means(int hops) {
        double[] out = new double[hops];
        int previous = -1;
        for (int k = 0; k < hops; k++) {
            if (k < used && counts[k] > 0) {
                out[k] = sums[k] / counts[k];
                if (previous < 0) {
                    Arrays.fill(out, 0, k, out[k]);
                } else {
                    for (int g = previous + 1; g < k; g++) {
                        out[g] = out[previous] + (out[k] - out[previous]) * (g - previous) / (k - previous);
                    }
                }
                previous = k;
            }
        }
        if (previous >= 0) {
            Arrays.fill(out, previous + 1, hops, out[previous]);
        }
        return out;
    }
}
