package dev.scorecast.engine.analysis.audio;

import dev.scorecast.engine.error.InvalidParameter;
import java.util.Arrays;

/**
 * True peak per ITU-R BS.1770-4 Annex 2: the largest magnitude of the signal upsampled 4x, which
 * catches peaks that fall between samples (a sine at a quarter of the sample rate can peak 3 dB
 * above its samples). The interpolator is a Kaiser-windowed sinc whose zero crossings fall on the
 * original samples, so phase 0 is the signal itself and only phases 1..3 are computed. The signal
 * is taken to start from silence; its end is not padded.
 */
final class TruePeakMeter {

    static final int OVERSAMPLING = 4;
    // 24 taps per phase (the standard's example has 12) keep the response flat to about 19 kHz
    // at 48 kHz: with fewer, content near the top of the band, as in white noise, reads low.
    static final int TAPS_PER_PHASE = 24;
    private static final double KAISER_BETA = 6.0;
    // Work in runs that keep the arrays of one pass in the first-level cache.
    private static final int RUN = 1024;
    private static final int HALF = TAPS_PER_PHASE / 2;
    // PHASES[p - 1][j] multiplies x[m + j] for the point p/4 of the way from x[m + HALF - 1] to x[m + HALF].
    private static final float[][] PHASES = design();
    // The largest sum of absolute taps of any phase: the most a phase can amplify a peak.
    private static final float GAIN_BOUND = gainBound();

    private final float[][] history;
    private float[] x = new float[0];
    private final float[] y = new float[RUN];
    private final float[] shifted = new float[RUN];
    private float peak;

    TruePeakMeter(int channels) {
        if (channels < 1) {
            throw new InvalidParameter("channels", "must be positive, was " + channels);
        }
        this.history = new float[channels][TAPS_PER_PHASE - 1];
    }

    /** Takes {@code frames} frames of {@code samples[channel][..]}. */
    void accept(float[][] samples, int frames) {
        for (int c = 0; c < history.length; c++) {
            peak = Math.max(peak, channelPeak(history[c], samples[c], frames));
        }
    }

    /** The true peak so far in dBTP (dB relative to full scale); -Infinity for digital silence. */
    double truePeakDbtp() {
        return 20 * Math.log10(peak);
    }

    private float channelPeak(float[] past, float[] block, int frames) {
        int keep = past.length;
        if (x.length < keep + frames) {
            x = new float[keep + frames];
        }
        System.arraycopy(past, 0, x, 0, keep);
        System.arraycopy(block, 0, x, keep, frames);
        float max = 0;
        for (int i = 0; i < frames; i++) {
            max = Math.max(max, Math.abs(block[i]));
        }
        for (int start = 0; start < frames; start += RUN) {
            int n = Math.min(RUN, frames - start);
            if (bound(start, n) > Math.max(max, peak)) {
                max = Math.max(max, interpolatedPeak(start, n));
            }
        }
        System.arraycopy(x, frames, past, 0, keep);
        return max;
    }

    /**
     * No point between x[start + HALF - 1] and x[start + n + HALF - 1] can exceed this; in dynamic
     * material most runs fall below the peak already found and are not interpolated at all.
     */
    private float bound(int start, int n) {
        float local = 0;
        for (int i = start; i < start + n + TAPS_PER_PHASE - 1; i++) {
            local = Math.max(local, Math.abs(x[i]));
        }
        return local * GAIN_BOUND;
    }

    private float interpolatedPeak(int start, int n) {
        float max = 0;
        for (float[] taps : PHASES) {
            Arrays.fill(y, 0, n, 0f);
            for (int j = 0; j < TAPS_PER_PHASE; j++) {
                // A copy per tap, so that the multiply-add below reads both arrays at the same
                // index: the JIT vectorises that form and not one with an offset between them.
                System.arraycopy(x, start + j, shifted, 0, n);
                float c = taps[j];
                for (int m = 0; m < n; m++) {
                    y[m] += c * shifted[m];
                }
            }
            for (int m = 0; m < n; m++) {
                max = Math.max(max, Math.abs(y[m]));
            }
        }
        return max;
    }

    private static float[][] design() {
        float[][] phases = new float[OVERSAMPLING - 1][TAPS_PER_PHASE];
        for (int p = 1; p < OVERSAMPLING; p++) {
            double fraction = p / (double) OVERSAMPLING;
            double[] h = new double[TAPS_PER_PHASE];
            double sum = 0;
            for (int j = 0; j < TAPS_PER_PHASE; j++) {
                double t = (HALF - 1 + fraction) - j; // distance from the interpolated point, in input samples
                double r = t / HALF;
                h[j] = sinc(t) * bessel0(KAISER_BETA * Math.sqrt(Math.max(0, 1 - r * r))) / bessel0(KAISER_BETA);
                sum += h[j];
            }
            // Unity gain at DC for every phase, so a constant signal reads the same between samples.
            for (int j = 0; j < TAPS_PER_PHASE; j++) {
                phases[p - 1][j] = (float) (h[j] / sum);
            }
        }
        return phases;
    }

    private static float gainBound() {
        double most = 1;
        for (float[] taps : PHASES) {
            double sum = 0;
            for (float t : taps) {
                sum += Math.abs(t);
            }
            most = Math.max(most, sum);
        }
        return (float) (most * 1.0001); // float rounding must not make the bound too tight
    }

    static double sinc(double t) {
        return t == 0 ? 1 : Math.sin(Math.PI * t) / (Math.PI * t);
    }

    /** The zeroth-order modified Bessel function of the first kind, by its power series. */
    static double bessel0(double x) {
        double sum = 1;
        double term = 1;
        for (int k = 1; k < 100 && term > sum * 1e-17; k++) {
            term *= (x / (2 * k)) * (x / (2 * k));
            sum += term;
        }
        return sum;
    }
}
