package dev.scorecast.engine.dsp;

/**
 * The polyphase filter that estimates a signal between its samples, for true-peak work (ITU-R
 * BS.1770 annex 2): Kaiser-windowed sinc, one phase per point between two samples. The meter and
 * the limiter both read peaks through it; they differ only in length and window.
 *
 * <p>{@code phases()[p - 1][j]} multiplies {@code x[m + j]} for the point p/oversampling of the way
 * from {@code x[m + taps/2 - 1]} to {@code x[m + taps/2]}.
 */
public final class InterSampleFilter {
    private final float[][] phases;
    private final float gainBound;

    /**
     * @param oversampling points per input sample (4 for BS.1770)
     * @param taps         taps per phase, even
     * @param kaiserBeta   the window's shape: larger rejects images better, widens the transition
     * @param boundMargin  how much above its exact value {@link #gainBound()} is put, for float rounding
     */
    public InterSampleFilter(int oversampling, int taps, double kaiserBeta, double boundMargin) {
        this.phases = design(oversampling, taps, kaiserBeta);
        double most = 1;
        for (float[] phase : phases) {
            double sum = 0;
            for (float t : phase) {
                sum += Math.abs(t);
            }
            most = Math.max(most, sum);
        }
        this.gainBound = (float) (most * (1 + boundMargin));
    }

    /** The phases; callers read them, never write. */
    public float[][] phases() {
        return phases;
    }

    /** No interpolated value exceeds the largest input magnitude times this, so quiet runs need no filtering. */
    public float gainBound() {
        return gainBound;
    }

    private static float[][] design(int oversampling, int taps, double beta) {
        int half = taps / 2;
        float[][] phases = new float[oversampling - 1][taps];
        for (int p = 1; p < oversampling; p++) {
            double fraction = p / (double) oversampling;
            double[] h = new double[taps];
            double sum = 0;
            for (int j = 0; j < taps; j++) {
                double t = (half - 1 + fraction) - j; // distance from the interpolated point, in input samples
                double r = t / half;
                h[j] = sinc(t) * bessel0(beta * Math.sqrt(Math.max(0, 1 - r * r))) / bessel0(beta);
                sum += h[j];
            }
            // Unity gain at DC for every phase, so a constant signal reads the same between samples.
            for (int j = 0; j < taps; j++) {
                phases[p - 1][j] = (float) (h[j] / sum);
            }
        }
        return phases;
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
