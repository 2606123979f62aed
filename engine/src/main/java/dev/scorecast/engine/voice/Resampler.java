package dev.scorecast.engine.voice;

import dev.scorecast.engine.error.InvalidParameter;

/**
 * Rational-ratio sample-rate conversion with a Kaiser-windowed sinc (32 taps at the lower rate,
 * one precomputed kernel per output phase). Enough for speech: the pass band reaches 90 % of the
 * lower Nyquist frequency and images sit about 80 dB down.
 */
public final class Resampler {

    private static final int HALF_TAPS = 16;
    private static final double BETA = 8.0;
    private static final double PASS = 0.9;

    private Resampler() {}

    /** {@code x} at {@code fromHz} resampled to {@code toHz}; sample 0 stays at time 0. */
    public static float[] resample(float[] x, int fromHz, int toHz) {
        if (fromHz <= 0) {
            throw new InvalidParameter("fromHz", "must be positive, was " + fromHz);
        }
        if (toHz <= 0) {
            throw new InvalidParameter("toHz", "must be positive, was " + toHz);
        }
        if (fromHz == toHz) {
            return x.clone();
        }
        int g = gcd(fromHz, toHz);
        int up = toHz / g;
        int down = fromHz / g;
        if (up > 4096) {
            throw new InvalidParameter("toHz", "the ratio " + toHz + "/" + fromHz + " needs too many phases; use common audio rates");
        }
        // Cut off below the lower of the two Nyquist frequencies, in units of the input rate.
        double cutoff = PASS * Math.min(1.0, (double) up / down);
        int half = (int) Math.ceil(HALF_TAPS / Math.min(1.0, (double) up / down));
        float[][] kernels = new float[up][2 * half];
        for (int phase = 0; phase < up; phase++) {
            double frac = phase / (double) up;
            for (int k = 0; k < 2 * half; k++) {
                double dist = k - half + 1 - frac; // tap position minus the output instant, in input samples
                kernels[phase][k] = (float) (cutoff * sinc(cutoff * dist) * kaiser(dist / half));
            }
        }
        int length = (int) ((long) x.length * up / down);
        float[] y = new float[length];
        for (int n = 0; n < length; n++) {
            long pos = (long) n * down;
            int base = (int) (pos / up);
            float[] kernel = kernels[(int) (pos % up)];
            double sum = 0;
            int first = base - half + 1;
            for (int k = 0; k < kernel.length; k++) {
                int i = first + k;
                if (i >= 0 && i < x.length) {
                    sum += kernel[k] * x[i];
                }
            }
            y[n] = (float) sum;
        }
        return y;
    }

    private static double sinc(double t) {
        return t == 0 ? 1 : Math.sin(Math.PI * t) / (Math.PI * t);
    }

    private static double kaiser(double r) {
        return Math.abs(r) >= 1 ? 0 : besselI0(BETA * Math.sqrt(1 - r * r)) / besselI0(BETA);
    }

    private static double besselI0(double x) {
        double sum = 1;
        double term = 1;
        for (int k = 1; k < 30; k++) {
            term *= (x / (2 * k)) * (x / (2 * k));
            sum += term;
        }
        return sum;
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
