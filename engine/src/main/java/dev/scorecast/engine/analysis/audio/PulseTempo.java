package dev.scorecast.engine.analysis.audio;

import dev.scorecast.engine.error.InvalidParameter;
import java.util.List;

/**
 * The tempo a listener hears in a run of onsets: the beat period that the most onset pairs are
 * whole multiples of (one to four beats apart, each pair weighted by how close it falls to a
 * multiple), searched in 0.05 bpm steps. The caller bounds the search, which settles whether the
 * pulse is the beat or its half or double, the usual ambiguity of tempo estimation; searching
 * within ±40 % of an expected tempo cannot let a tempo 2 % off pass for it.
 */
public final class PulseTempo {
    private static final double STEP_BPM = 0.05;
    /** How far from a whole number of beats a pair still counts, in beats (Gaussian width). */
    private static final double SPREAD_BEATS = 0.015;

    private PulseTempo() {}

    /** @param onsets seconds, ascending */
    public static double estimateBpm(List<Double> onsets, double minBpm, double maxBpm) {
        if (!(minBpm > 0 && maxBpm >= minBpm)) {
            throw new InvalidParameter("minBpm", "give 0 < minBpm <= maxBpm, was " + minBpm + " to " + maxBpm);
        }
        double bestBpm = minBpm;
        double bestScore = -1;
        for (double bpm = minBpm; bpm <= maxBpm; bpm += STEP_BPM) {
            double period = 60 / bpm;
            double score = 0;
            for (int i = 0; i < onsets.size(); i++) {
                for (int j = i + 1; j < onsets.size(); j++) {
                    double beats = (onsets.get(j) - onsets.get(i)) / period;
                    if (beats > 4.5) {
                        break;
                    }
                    long k = Math.round(beats);
                    if (k >= 1) {
                        double off = (beats - k) / SPREAD_BEATS;
                        score += Math.exp(-off * off / 2);
                    }
                }
            }
            if (score > bestScore) {
                bestScore = score;
                bestBpm = bpm;
            }
        }
        return bestBpm;
    }
}
