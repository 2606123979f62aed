package dev.scorecast.engine.dsp;

import dev.scorecast.engine.error.InvalidParameter;
import java.util.Arrays;

/**
 * Streams a recording through K-weighting and keeps one number per 100 ms step (its K-weighted
 * energy), plus the true peak: memory grows by 8 bytes per 100 ms whatever the channel count or
 * rate, so a 30-minute track costs 144 KB. {@link #finish()} applies {@link Loudness}.
 */
public final class LoudnessMeter {

    private final int channels;
    private final int framesPerStep;
    private final Biquad shelf;
    private final Biquad highPass;
    private final double[][] state;
    private final TruePeakMeter truePeak;
    private double[] stepEnergy = new double[64];
    private int steps; // complete steps so far
    private double partialEnergy;
    private int partialFrames;
    private long frames;
    private final boolean stepsOf100Ms;

    public LoudnessMeter(int sampleRateHz, int channels) {
        this(sampleRateHz, channels, sampleRateHz / 10);
        if (sampleRateHz % 10 != 0) {
            throw new InvalidParameter(
                    "sampleRateHz", "must be a multiple of 10 Hz so that 100 ms is whole samples, was " + sampleRateHz);
        }
    }

    /**
     * A meter keeping one K-weighted energy per {@code framesPerStep} frames, for a caller that
     * looks at finer steps than 100 ms ({@link #stepEnergies()}); {@link #finish()} needs 100 ms steps.
     */
    public LoudnessMeter(int sampleRateHz, int channels, int framesPerStep) {
        if (channels < 1 || channels > 2) {
            // BS.1770 weighs surround channels differently; the extractor always delivers stereo.
            throw new InvalidParameter("channels", "must be 1 or 2, was " + channels);
        }
        if (framesPerStep < 1) {
            throw new InvalidParameter("framesPerStep", "must be positive, was " + framesPerStep);
        }
        Biquad[] k = Loudness.kWeighting(sampleRateHz);
        this.shelf = k[0];
        this.highPass = k[1];
        this.channels = channels;
        this.framesPerStep = framesPerStep;
        this.state = new double[channels][4];
        this.truePeak = new TruePeakMeter(channels);
        this.stepsOf100Ms = sampleRateHz % 10 == 0 && framesPerStep == sampleRateHz / 10;
    }

    /** The K-weighted energy of each step so far, summed over the channels; the last one may be partial. */
    public double[] stepEnergies() {
        double[] energy = Arrays.copyOf(stepEnergy, steps + (partialFrames > 0 ? 1 : 0));
        if (partialFrames > 0) {
            energy[steps] = partialEnergy;
        }
        return energy;
    }

    /** Frames taken so far. */
    public long frames() {
        return frames;
    }

    /** Takes {@code frames} frames of {@code samples[channel][..]}, full scale +-1. */
    public void accept(float[][] samples, int frames) {
        truePeak.accept(samples, frames);
        int done = 0;
        while (done < frames) {
            int n = Math.min(frames - done, framesPerStep - partialFrames);
            for (int c = 0; c < channels; c++) {
                partialEnergy += weightedEnergy(samples[c], done, done + n, state[c]);
            }
            partialFrames += n;
            done += n;
            if (partialFrames == framesPerStep) {
                push(partialEnergy);
                partialEnergy = 0;
                partialFrames = 0;
            }
        }
        this.frames += frames;
    }

    /** What the recording measured. */
    public Result finish() {
        if (!stepsOf100Ms) {
            throw new IllegalStateException(
                    "loudness is gated over 100 ms steps; this meter keeps " + framesPerStep + "-frame steps");
        }
        double[] energy = stepEnergies();
        return new Result(
                Loudness.integratedLufs(energy, frames, framesPerStep),
                truePeak.truePeakDbtp(),
                Loudness.momentaryLufs(energy, frames, framesPerStep));
    }

    /**
     * @param integratedLufs BS.1770-4 integrated loudness; null when silent throughout or under 400 ms
     * @param truePeakDbtp   4x-oversampled peak, dB re full scale; -Infinity for digital silence
     * @param momentaryLufs  one value per {@link Loudness#STEP_SECONDS}, see {@link Loudness#momentaryLufs}
     */
    public record Result(Double integratedLufs, double truePeakDbtp, double[] momentaryLufs) {}

    // Both K-weighting stages fused in one loop, in double, so that no intermediate is rounded.
    private double weightedEnergy(float[] x, int from, int to, double[] s) {
        double z1 = s[0];
        double z2 = s[1];
        double w1 = s[2];
        double w2 = s[3];
        double sum = 0;
        for (int i = from; i < to; i++) {
            double in = x[i];
            double a = shelf.b0() * in + z1;
            z1 = shelf.b1() * in - shelf.a1() * a + z2;
            z2 = shelf.b2() * in - shelf.a2() * a;
            double y = highPass.b0() * a + w1;
            w1 = highPass.b1() * a - highPass.a1() * y + w2;
            w2 = highPass.b2() * a - highPass.a2() * y;
            sum += y * y;
        }
        s[0] = z1;
        s[1] = z2;
        s[2] = w1;
        s[3] = w2;
        return sum;
    }

    private void push(double energy) {
        if (steps == stepEnergy.length) {
            stepEnergy = Arrays.copyOf(stepEnergy, steps * 2);
        }
        stepEnergy[steps++] = energy;
    }
}
