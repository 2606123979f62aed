package dev.scorecast.engine.voice.singing;

import java.util.Random;

/**
 * A soft inhale before a line: band-limited noise (about 600 Hz to 5 kHz, like air past the
 * vocal tract) that swells and stops 40 ms before the line's first note, about 30 dB below the
 * sung vowels. The noise is seeded, so a line renders the same way every time.
 */
final class Breath {

    private static final double LEVEL = 0.012;

    private Breath() {}

    static void addBefore(float[] out, int lineStart, double gapSeconds, int rate) {
        double seconds = Math.min(0.28, gapSeconds - 0.12);
        if (seconds < 0.08) {
            return;
        }
        int length = (int) (seconds * rate);
        int end = lineStart - rate / 25;
        int start = end - length;
        if (start < 0) {
            return;
        }
        Random random = EspeakSinger.noise(31L * length + 17);
        double hp = 0;
        double lastIn = 0;
        double lp = 0;
        double hpCoef = Math.exp(-2 * Math.PI * 600.0 / rate);
        double lpCoef = Math.exp(-2 * Math.PI * 5000.0 / rate);
        for (int i = 0; i < length; i++) {
            double in = random.nextGaussian();
            hp = hpCoef * (hp + in - lastIn);
            lastIn = in;
            lp = (1 - lpCoef) * hp + lpCoef * lp;
            double x = i / (double) length;
            // Swells to its peak at 70 % of its length, then falls away quickly.
            double envelope = x < 0.7 ? Math.sin(0.5 * Math.PI * x / 0.7) : Math.cos(0.5 * Math.PI * (x - 0.7) / 0.3);
            out[start + i] += (float) (LEVEL * envelope * envelope * lp);
        }
    }
}
