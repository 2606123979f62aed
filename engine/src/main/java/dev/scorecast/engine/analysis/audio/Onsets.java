package dev.scorecast.engine.analysis.audio;

import dev.scorecast.engine.error.InvalidParameter;
import java.util.ArrayList;
import java.util.List;

/** Picks onsets from an onset-strength curve by {@link OnsetRules}. Pure. */
public final class Onsets {

    private Onsets() {}

    /**
     * @param flux         onset strength per frame, not negative
     * @param count        how many values of {@code flux} are valid
     * @param frameSeconds time between frames; frame {@code i} is at {@code i * frameSeconds}
     * @return onset times in seconds, ascending
     */
    public static List<Double> pick(float[] flux, int count, double frameSeconds, OnsetRules rules) {
        if (count < 0 || count > flux.length) {
            throw new InvalidParameter("count", "must be in [0, " + flux.length + "], was " + count);
        }
        if (!(frameSeconds > 0)) {
            throw new InvalidParameter("frameSeconds", "must be positive, was " + frameSeconds);
        }
        int maxWindow = (int) Math.round(rules.maxWindowSeconds() / frameSeconds);
        int meanWindow = (int) Math.round(rules.meanWindowSeconds() / frameSeconds);
        int minGap = (int) Math.ceil(rules.minGapSeconds() / frameSeconds - 1e-9);
        // A running sum over the mean window keeps the whole pass linear in the frame count.
        double[] prefix = new double[count + 1];
        for (int i = 0; i < count; i++) {
            prefix[i + 1] = prefix[i] + flux[i];
        }
        List<Double> onsets = new ArrayList<>();
        int last = Integer.MIN_VALUE / 2;
        for (int i = 0; i < count; i++) {
            if (i - last < minGap || !isLocalMax(flux, count, i, maxWindow)) {
                continue;
            }
            int from = Math.max(0, i - meanWindow);
            int to = Math.min(count, i + meanWindow + 1);
            double mean = (prefix[to] - prefix[from]) / (to - from);
            if (flux[i] >= rules.meanFactor() * mean + rules.threshold()) {
                onsets.add(i * frameSeconds);
                last = i;
            }
        }
        return onsets;
    }

    private static boolean isLocalMax(float[] flux, int count, int i, int window) {
        for (int j = Math.max(0, i - window); j <= Math.min(count - 1, i + window); j++) {
            // Ties go to the earliest frame, so a flat top yields one onset at its start.
            if (flux[j] > flux[i] || (flux[j] == flux[i] && j < i)) {
                return false;
            }
        }
        return true;
    }
}
