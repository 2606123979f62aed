package dev.scorecast.engine.render;

import dev.scorecast.engine.dsp.Loudness;
import dev.scorecast.engine.dsp.LoudnessMeter;
import dev.scorecast.engine.dsp.Smoothing;
import dev.scorecast.engine.dsp.TruePeakLimiter;
import java.util.Arrays;

/**
 * Forecasts what the master's {@link TruePeakLimiter} will take from the loudness, so the master
 * pass can be run once at the gain that lands on the target instead of once to find out and once
 * more with the shortfall added (half a second of a 60 s video's execution).
 *
 * <p>While the bus is written it keeps, for every millisecond, the K-weighted energy and the
 * sample peak: 12 bytes per millisecond, 43 MB for an hour. For a gain it then runs a model of
 * the limiter at that resolution (the gain each millisecond's peak needs, the sliding minimum over
 * the look-ahead, the release, the ramp spread over the look-ahead) and gates the weighted
 * energies as BS.1770 does. The model reads sample peaks where the limiter reads 4x-oversampled
 * ones, so it under-forecasts the reduction by the inter-sample overs (about 0.1 dB of loudness on
 * the benchmark clip); the master's measured loudness still decides whether the pass runs again.
 */
final class LimiterForecast {
    /** Frames per model step: 1 ms at 48 kHz, so that 100 of them are one loudness step. */
    static final int STEP = 48;

    private static final int STEPS_PER_LOUDNESS_STEP = 100;
    private static final int LOOKAHEAD_STEPS = Math.max(1, TruePeakLimiter.LOOKAHEAD / STEP);
    /** Gains the search may add above the unlimited estimate; a limiter asked for more only distorts. */
    static final double MOST_ADDED_DB = 12;

    private static final double CLOSE_ENOUGH_LU = 0.02;

    private final int rate;
    private final LoudnessMeter meter;
    private float[] peaks = new float[1024];
    private int steps;
    private float partialPeak;
    private int partialFrames;

    LimiterForecast(int rate) {
        if (rate != STEP * 1000) {
            throw new IllegalArgumentException(
                    "the forecast steps by 1 ms at " + STEP * 1000 + " Hz, not " + rate + " Hz");
        }
        this.rate = rate;
        this.meter = new LoudnessMeter(rate, 2, STEP);
    }

    /** Takes the next {@code n} frames of the bus as the limiter will get them, before the master gain. */
    void accept(float[][] buf, int n) {
        meter.accept(buf, n);
        float[] l = buf[0];
        float[] r = buf[1];
        int i = 0;
        while (i < n) {
            int m = Math.min(n - i, STEP - partialFrames);
            float peak = partialPeak;
            for (int k = i; k < i + m; k++) {
                peak = Math.max(peak, Math.max(Math.abs(l[k]), Math.abs(r[k])));
            }
            partialPeak = peak;
            partialFrames += m;
            i += m;
            if (partialFrames == STEP) {
                push(peak);
                partialPeak = 0;
                partialFrames = 0;
            }
        }
    }

    /** The bus's integrated loudness at unit gain, without the limiter; null when silent. */
    Double unlimitedLufs() {
        settle();
        return lufs(meter.stepEnergies(), null, 1);
    }

    /**
     * The gain (dB) that the forecast says brings the limited master to {@code goalLufs} at
     * {@code ceilingDbtp}, searched from {@code unlimitedGainDb} (the gain that would without a
     * limiter) up to {@value #MOST_ADDED_DB} dB above it.
     */
    double gainDb(double goalLufs, double ceilingDbtp, double unlimitedGainDb) {
        settle();
        double[] energy = meter.stepEnergies();
        double ceiling = Math.pow(10, ceilingDbtp / 20);
        double lo = unlimitedGainDb;
        double fLo = forecast(energy, lo, ceiling);
        if (fLo == Double.NEGATIVE_INFINITY || fLo >= goalLufs - CLOSE_ENOUGH_LU) {
            return lo;
        }
        double hi = unlimitedGainDb + MOST_ADDED_DB;
        double fHi = forecast(energy, hi, ceiling);
        if (fHi <= goalLufs) {
            return hi;
        }
        // Loudness rises with the gain, ever more slowly as the limiter works harder: regula falsi
        // (Illinois) on the bracket, a few model runs of a millisecond each.
        int side = 0;
        for (int i = 0; i < 40; i++) {
            double x = hi - (fHi - goalLufs) * (hi - lo) / (fHi - fLo);
            double f = forecast(energy, x, ceiling);
            if (Math.abs(f - goalLufs) < CLOSE_ENOUGH_LU) {
                return x;
            }
            if (f < goalLufs) {
                lo = x;
                fLo = f;
                if (side == -1) {
                    fHi = goalLufs + (fHi - goalLufs) / 2;
                }
                side = -1;
            } else {
                hi = x;
                fHi = f;
                if (side == 1) {
                    fLo = goalLufs + (fLo - goalLufs) / 2;
                }
                side = 1;
            }
        }
        return lo;
    }

    /** The forecast integrated loudness at {@code gainDb} through a limiter at {@code ceiling} (linear). */
    private double forecast(double[] energy, double gainDb, double ceiling) {
        double gain = Math.pow(10, gainDb / 20);
        Double l = lufs(energy, limiterGains(gain, ceiling), gain);
        return l == null ? Double.NEGATIVE_INFINITY : l;
    }

    /**
     * The limiter's gain on each millisecond: the least gain any peak within the look-ahead needs,
     * recovering with the release, spread as the limiter's ramps spread it over the look-ahead.
     */
    private double[] limiterGains(double gain, double ceiling) {
        double release = Smoothing.coefficient(TruePeakLimiter.RELEASE_MS, rate / STEP);
        double[] held = new double[steps];
        double h = 1;
        for (int s = 0; s < steps; s++) {
            double need = 1;
            for (int k = Math.max(0, s - LOOKAHEAD_STEPS + 1); k <= s; k++) {
                double p = peaks[k] * gain;
                if (p > ceiling) {
                    need = Math.min(need, ceiling / p);
                }
            }
            h = Math.min(need, h + (1 - h) * release);
            held[s] = h;
        }
        double[] out = new double[steps];
        for (int s = 0; s < steps; s++) {
            double sum = 0;
            int to = Math.min(steps, s + LOOKAHEAD_STEPS);
            for (int k = s; k < to; k++) {
                sum += held[k];
            }
            out[s] = sum / (to - s);
        }
        return out;
    }

    /** BS.1770 integrated loudness of the bus at {@code gain} with {@code limiter}'s gains (null: none). */
    private Double lufs(double[] energy, double[] limiter, double gain) {
        int loudnessSteps = (energy.length + STEPS_PER_LOUDNESS_STEP - 1) / STEPS_PER_LOUDNESS_STEP;
        double[] summed = new double[loudnessSteps];
        for (int s = 0; s < energy.length; s++) {
            double g = limiter == null || s >= limiter.length ? gain : gain * limiter[s];
            summed[s / STEPS_PER_LOUDNESS_STEP] += energy[s] * g * g;
        }
        return Loudness.integratedLufs(summed, meter.frames(), STEP * STEPS_PER_LOUDNESS_STEP);
    }

    /** Counts a last partial millisecond as a step, as the meter does; the bus is complete once it is asked. */
    private void settle() {
        if (partialFrames > 0) {
            push(partialPeak);
            partialPeak = 0;
            partialFrames = 0;
        }
    }

    private void push(float peak) {
        if (steps == peaks.length) {
            peaks = Arrays.copyOf(peaks, steps * 2);
        }
        peaks[steps++] = peak;
    }
}
