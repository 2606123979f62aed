package dev.scorecast.engine.dsp;

import dev.scorecast.engine.error.InvalidParameter;

/**
 * Loudness per ITU-R BS.1770-4 and EBU R128, as pure functions over what {@link LoudnessMeter}
 * collects: the K-weighted energy of each 100 ms step of the recording (the sum over channels, all
 * weighted 1.0 as for left and right, of the squared filtered samples).
 *
 * <p>A gating block is 400 ms, four consecutive steps, so blocks overlap by 75 %. Only complete
 * steps form gating blocks: a recording shorter than 400 ms has none.
 */
public final class Loudness {

    /** Length of a step in seconds; blocks advance by one step. */
    public static final double STEP_SECONDS = 0.1;
    /** Steps per 400 ms gating or momentary block. */
    public static final int STEPS_PER_BLOCK = 4;

    public static final double ABSOLUTE_GATE_LUFS = -70;
    public static final double RELATIVE_GATE_LU = -10;
    /** The floor of {@link #unitScale}: quieter than this is 0. */
    public static final double UNIT_FLOOR_LUFS = -60;

    private Loudness() {}

    /** The two K-weighting stages (high shelf, then the RLB high-pass) for {@code sampleRateHz}. */
    public static Biquad[] kWeighting(int sampleRateHz) {
        if (sampleRateHz < 8_000 || sampleRateHz > 384_000) {
            throw new InvalidParameter("sampleRateHz", "must be in [8000, 384000] Hz, was " + sampleRateHz);
        }
        // The analogue prototypes behind BS.1770-4's 48 kHz tables; the bilinear transform of
        // each gives the standard's coefficients at 48 kHz and the same response at other rates.
        double k = Math.tan(Math.PI * 1681.974450955533 / sampleRateHz);
        double q = 0.7071752369554196;
        double vh = Math.pow(10, 3.999843853973347 / 20);
        double vb = Math.pow(vh, 0.4996667741545416);
        double a0 = 1 + k / q + k * k;
        Biquad shelf = new Biquad(
                (vh + vb * k / q + k * k) / a0,
                2 * (k * k - vh) / a0,
                (vh - vb * k / q + k * k) / a0,
                2 * (k * k - 1) / a0,
                (1 - k / q + k * k) / a0);
        k = Math.tan(Math.PI * 38.13547087602444 / sampleRateHz);
        q = 0.5003270373238773;
        a0 = 1 + k / q + k * k;
        Biquad highPass = new Biquad(1, -2, 1, 2 * (k * k - 1) / a0, (1 - k / q + k * k) / a0);
        return new Biquad[] {shelf, highPass};
    }

    /** Loudness in LUFS of a K-weighted mean square summed over channels; -Infinity for 0. */
    public static double lufs(double weightedMeanSquare) {
        return -0.691 + 10 * Math.log10(weightedMeanSquare);
    }

    /**
     * Integrated loudness: the mean power of the 400 ms blocks above the absolute gate (-70 LUFS),
     * then of those also above that mean minus 10 LU.
     *
     * @param stepEnergy    K-weighted energy per 100 ms step; the last step may be partial
     * @param totalFrames   sample frames in the recording
     * @param framesPerStep sample frames in a complete step
     * @return LUFS, or null when no block passes the absolute gate (silence, or under 400 ms)
     */
    public static Double integratedLufs(double[] stepEnergy, long totalFrames, int framesPerStep) {
        int blocks = completeSteps(stepEnergy, totalFrames, framesPerStep) - STEPS_PER_BLOCK + 1;
        double absoluteGate = power(ABSOLUTE_GATE_LUFS);
        double sum = 0;
        int count = 0;
        for (int j = 0; j < blocks; j++) {
            double p = blockPower(stepEnergy, j, framesPerStep);
            if (p > absoluteGate) {
                sum += p;
                count++;
            }
        }
        if (count == 0) {
            return null;
        }
        double relativeGate = Math.max(absoluteGate, sum / count * Math.pow(10, RELATIVE_GATE_LU / 10));
        sum = 0;
        count = 0;
        for (int j = 0; j < blocks; j++) {
            double p = blockPower(stepEnergy, j, framesPerStep);
            if (p > relativeGate) {
                sum += p;
                count++;
            }
        }
        return lufs(sum / count);
    }

    /**
     * Momentary loudness (400 ms window) for each 100 ms step, in LUFS (-Infinity for digital
     * silence). Value {@code i} belongs to {@code [i, i + 1) * 0.1 s} and is measured over the
     * 400 ms centred on it (steps {@code i - 1 .. i + 2}), shortened at the ends of the recording,
     * so a sound shows up where it happens rather than 200 ms late.
     */
    public static double[] momentaryLufs(double[] stepEnergy, long totalFrames, int framesPerStep) {
        int steps = steps(stepEnergy, totalFrames, framesPerStep);
        double[] out = new double[steps];
        for (int i = 0; i < steps; i++) {
            double energy = 0;
            long frames = 0;
            for (int s = Math.max(0, i - 1); s <= Math.min(steps - 1, i + 2); s++) {
                energy += stepEnergy[s];
                frames += Math.min(framesPerStep, totalFrames - (long) s * framesPerStep);
            }
            out[i] = lufs(energy / frames);
        }
        return out;
    }

    /**
     * Maps LUFS to [0, 1] for the energy curve: {@code (lufs + 60) / 60}, clamped. -60 LUFS (near
     * inaudible) is 0 and 0 LUFS (full-scale noise) is 1; dialogue at -23 LUFS lands near 0.6 and
     * loud music at -10 near 0.83, a spread that separates quiet, talky and loud stretches.
     */
    public static double unitScale(double lufs) {
        if (Double.isNaN(lufs)) {
            throw new InvalidParameter("lufs", "must be a number");
        }
        return Math.clamp((lufs - UNIT_FLOOR_LUFS) / -UNIT_FLOOR_LUFS, 0.0, 1.0);
    }

    private static double blockPower(double[] stepEnergy, int first, int framesPerStep) {
        double energy = 0;
        for (int s = first; s < first + STEPS_PER_BLOCK; s++) {
            energy += stepEnergy[s];
        }
        return energy / ((double) STEPS_PER_BLOCK * framesPerStep);
    }

    /** The mean square whose loudness is {@code lufs}. */
    private static double power(double lufs) {
        return Math.pow(10, (lufs + 0.691) / 10);
    }

    private static int steps(double[] stepEnergy, long totalFrames, int framesPerStep) {
        if (framesPerStep < 1) {
            throw new InvalidParameter("framesPerStep", "must be positive, was " + framesPerStep);
        }
        if (totalFrames < 0) {
            throw new InvalidParameter("totalFrames", "must not be negative, was " + totalFrames);
        }
        long steps = (totalFrames + framesPerStep - 1) / framesPerStep;
        if (steps > stepEnergy.length) {
            throw new InvalidParameter(
                    "stepEnergy", "has " + stepEnergy.length + " steps, " + totalFrames + " frames need " + steps);
        }
        return (int) steps;
    }

    private static int completeSteps(double[] stepEnergy, long totalFrames, int framesPerStep) {
        steps(stepEnergy, totalFrames, framesPerStep);
        return (int) (totalFrames / framesPerStep);
    }
}
