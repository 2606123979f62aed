package dev.scorecast.engine.analysis.audio;

import dev.scorecast.engine.error.InvalidParameter;

/**
 * How peaks of the onset-strength curve become onsets. A frame is an onset when its strength is
 * the largest within {@code maxWindowSeconds} either side, reaches {@code meanFactor} times the
 * mean strength within {@code meanWindowSeconds} either side plus {@code threshold} (in the units
 * of {@link OnsetDetector}'s flux), and comes at least {@code minGapSeconds} after the previous
 * onset. The factor adapts to the background: steady noise has a high mean flux of its own, and
 * its random peaks stay under three times it, while in silence {@code threshold} alone decides.
 */
public record OnsetRules(
        double maxWindowSeconds, double meanWindowSeconds, double meanFactor, double threshold, double minGapSeconds) {

    /**
     * 30 ms local maxima, a 100 ms context for the mean, three times the mean plus 0.05, a 50 ms
     * minimum gap (20 hits per second). Measured on generated sound: no onsets in a minute of
     * steady pink or white noise, every tone burst down to -30 dBFS found.
     */
    public static final OnsetRules DEFAULT = new OnsetRules(0.03, 0.1, 3, 0.05, 0.05);

    public OnsetRules {
        if (!(maxWindowSeconds >= 0 && maxWindowSeconds <= 1)) {
            throw new InvalidParameter("maxWindowSeconds", "must be in [0, 1] seconds, was " + maxWindowSeconds);
        }
        if (!(meanWindowSeconds >= 0 && meanWindowSeconds <= 5)) {
            throw new InvalidParameter("meanWindowSeconds", "must be in [0, 5] seconds, was " + meanWindowSeconds);
        }
        if (!(meanFactor >= 0 && meanFactor <= 100)) {
            throw new InvalidParameter("meanFactor", "must be in [0, 100], was " + meanFactor);
        }
        if (!(threshold > 0)) {
            throw new InvalidParameter("threshold", "must be positive, was " + threshold);
        }
        if (!(minGapSeconds >= 0 && minGapSeconds <= 10)) {
            throw new InvalidParameter("minGapSeconds", "must be in [0, 10] seconds, was " + minGapSeconds);
        }
    }
}
