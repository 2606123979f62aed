package dev.scorecast.engine.dsp;

import dev.scorecast.engine.error.InvalidParameter;

/** In-place radix-2 complex FFT of one fixed size, with its tables precomputed. Not thread-safe. */
final class Fft {

    private final int size;
    private final double[] cos;
    private final double[] sin;
    private final int[] reversed;

    Fft(int size) {
        if (size < 2 || Integer.bitCount(size) != 1) {
            throw new InvalidParameter("size", "must be a power of two >= 2, was " + size);
        }
        this.size = size;
        cos = new double[size / 2];
        sin = new double[size / 2];
        for (int i = 0; i < size / 2; i++) {
            cos[i] = Math.cos(2 * Math.PI * i / size);
            sin[i] = -Math.sin(2 * Math.PI * i / size);
        }
        reversed = new int[size];
        int bits = Integer.numberOfTrailingZeros(size);
        for (int i = 0; i < size; i++) {
            reversed[i] = Integer.reverse(i) >>> (32 - bits);
        }
    }

    int size() {
        return size;
    }

    /** Forward transform of {@code re + i im}, in place, without scaling. */
    void transform(double[] re, double[] im) {
        for (int i = 0; i < size; i++) {
            int j = reversed[i];
            if (j > i) {
                double t = re[i];
                re[i] = re[j];
                re[j] = t;
                t = im[i];
                im[i] = im[j];
                im[j] = t;
            }
        }
        for (int span = 1; span < size; span <<= 1) {
            int stride = size / (2 * span);
            for (int start = 0; start < size; start += 2 * span) {
                for (int k = 0; k < span; k++) {
                    double wr = cos[k * stride];
                    double wi = sin[k * stride];
                    int a = start + k;
                    int b = a + span;
                    double tr = re[b] * wr - im[b] * wi;
                    double ti = re[b] * wi + im[b] * wr;
                    re[b] = re[a] - tr;
                    im[b] = im[a] - ti;
                    re[a] += tr;
                    im[a] += ti;
                }
            }
        }
    }
}
