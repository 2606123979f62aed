package dev.scorecast.engine.render;

import dev.scorecast.engine.dsp.Smoothing;

/**
 * A gentle stereo-linked bus compressor, the "glue" of the mix: RMS detection over about 10 ms,
 * 2:1 above the threshold with a 6 dB soft knee, 25 ms attack so drum transients pass before it
 * acts, and a program-dependent release: a fast (150 ms) and a slow (1.5 s, 400 ms attack)
 * envelope run side by side and the larger reduction wins, so a lone hit recovers quickly while
 * a long loud passage is released slowly, without pumping. Works in place on blocks.
 */
final class BusCompressor {

    static final double RATIO = 2.0;
    static final double KNEE_DB = 6.0;
    static final double DETECTOR_MS = 10;
    static final double ATTACK_MS = 25;
    static final double FAST_RELEASE_MS = 150;
    static final double SLOW_ATTACK_MS = 400;
    static final double SLOW_RELEASE_MS = 1500;

    private final double thresholdDb;
    private final double ratio;
    private final double detector;
    private final double attack;
    private final double fastRelease;
    private final double slowAttack;
    private final double slowRelease;
    private double meanSquare;
    private double fast; // dB of reduction
    private double slow;
    private double reductionSum;
    private double maxReduction;
    private long frames;

    BusCompressor(double thresholdDbfs, int rate) {
        this(thresholdDbfs, RATIO, rate);
    }

    /** {@code ratio} 1 to 10; the genre's glue sets it (2:1 unless the production says otherwise). */
    BusCompressor(double thresholdDbfs, double ratio, int rate) {
        if (!(ratio >= 1 && ratio <= 10)) {
            throw new IllegalArgumentException("bus compressor ratio must be 1 to 10, was " + ratio);
        }
        this.ratio = ratio;
        this.thresholdDb = thresholdDbfs;
        this.detector = Smoothing.coefficient(DETECTOR_MS, rate);
        this.attack = Smoothing.coefficient(ATTACK_MS, rate);
        this.fastRelease = Smoothing.coefficient(FAST_RELEASE_MS, rate);
        this.slowAttack = Smoothing.coefficient(SLOW_ATTACK_MS, rate);
        this.slowRelease = Smoothing.coefficient(SLOW_RELEASE_MS, rate);
    }

    void process(float[][] buf, int n) {
        float[] l = buf[0];
        float[] r = buf[1];
        double slope = 1 - 1 / ratio;
        for (int i = 0; i < n; i++) {
            double x = 0.5 * (l[i] * (double) l[i] + r[i] * (double) r[i]);
            meanSquare += (x - meanSquare) * detector;
            double level = 10 * Math.log10(meanSquare + 1e-20);
            double over = level - thresholdDb;
            double want;
            if (over <= -KNEE_DB / 2) {
                want = 0;
            } else if (over >= KNEE_DB / 2) {
                want = slope * over;
            } else {
                double k = over + KNEE_DB / 2;
                want = slope * k * k / (2 * KNEE_DB);
            }
            fast += (want - fast) * (want > fast ? attack : fastRelease);
            slow += (want - slow) * (want > slow ? slowAttack : slowRelease);
            double reduction = Math.max(fast, slow);
            float g = (float) Math.exp(-reduction * (Math.log(10) / 20));
            l[i] *= g;
            r[i] *= g;
            reductionSum += reduction;
            maxReduction = Math.max(maxReduction, reduction);
        }
        frames += n;
    }

    double meanReductionDb() {
        return frames == 0 ? 0 : reductionSum / frames;
    }

    double maxReductionDb() {
        return maxReduction;
    }
}
