package dev.scorecast.engine.dsp;

import dev.scorecast.engine.error.InvalidParameter;

/**
 * Magnitude spectrum of a real frame through a complex FFT of half its size: even samples go in
 * as real parts, odd ones as imaginary parts, and one pass of twiddles separates the two
 * spectra. About half the work of a full-size complex transform. Not thread-safe.
 */
public final class RealFft {

    private final int size;
    private final Fft half;
    private final double[] re;
    private final double[] im;
    private final double[] cos;
    private final double[] sin;

    public RealFft(int size) {
        if (size < 4 || Integer.bitCount(size) != 1) {
            throw new InvalidParameter("size", "must be a power of two >= 4, was " + size);
        }
        this.size = size;
        this.half = new Fft(size / 2);
        this.re = new double[size / 2];
        this.im = new double[size / 2];
        this.cos = new double[size / 2 + 1];
        this.sin = new double[size / 2 + 1];
        for (int k = 0; k <= size / 2; k++) {
            cos[k] = Math.cos(2 * Math.PI * k / size);
            sin[k] = Math.sin(2 * Math.PI * k / size);
        }
    }

    public int size() {
        return size;
    }

    /** |X[k]| for k = 0 .. size/2 of {@code frame[0..size)} into {@code magnitude[0..size/2]}. */
    public void magnitudes(double[] frame, double[] magnitude) {
        int n = size / 2;
        for (int i = 0; i < n; i++) {
            re[i] = frame[2 * i];
            im[i] = frame[2 * i + 1];
        }
        half.transform(re, im);
        for (int k = 0; k <= n; k++) {
            int a = k % n;
            int b = (n - k) % n;
            // Even part E = (Z[k] + conj Z[n-k]) / 2, odd part O = (Z[k] - conj Z[n-k]) / 2i.
            double er = (re[a] + re[b]) / 2;
            double ei = (im[a] - im[b]) / 2;
            double or = (im[a] + im[b]) / 2;
            double oi = -(re[a] - re[b]) / 2;
            // X[k] = E + e^{-2 pi i k / size} O
            double xr = er + cos[k] * or + sin[k] * oi;
            double xi = ei + cos[k] * oi - sin[k] * or;
            magnitude[k] = Math.sqrt(xr * xr + xi * xi);
        }
    }
}
