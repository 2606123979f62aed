package dev.scorecast.engine.dsp;

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
    private static final InterSampleFilter FILTER =
            new InterSampleFilter(OVERSAMPLING, TAPS_PER_PHASE, KAISER_BETA, 1e-4);
    private static final float[][] PHASES = FILTER.phases();
    // The largest sum of absolute taps of any phase: the most a phase can amplify a peak.
    private static final float GAIN_BOUND = FILTER.gainBound();

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
}
