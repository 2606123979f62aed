package dev.scorecast.engine.dsp;

import java.util.Arrays;
import java.util.Locale;

/**
 * One second-order filter section on every channel, in place: high-pass, low-pass, shelves and
 * peaks from the RBJ "Audio EQ Cookbook" formulas. Transposed direct form II in double, so a
 * 30 Hz high-pass at 48 kHz stays exact. The coefficients are fixed when it is built (a part's EQ
 * does not move while a piece plays, and are a {@link Biquad}, the one coefficient type the meters'
 * K-weighting uses too); {@link #reset()} clears the state.
 */
public final class BiquadFilter implements BlockProcessor {

    /** What the section does. Shelves and peaks use {@code gainDb}; the passes ignore it. */
    public enum Shape {
        HIGH_PASS,
        LOW_PASS,
        LOW_SHELF,
        HIGH_SHELF,
        PEAK;

        /** The data files' name: {@code high_pass}, {@code low_shelf}, ... */
        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Shape fromWire(String wire) {
            for (Shape s : values()) {
                if (s.wire().equals(wire)) {
                    return s;
                }
            }
            throw new IllegalArgumentException(
                    "unknown filter type '" + wire + "' (high_pass, low_pass, low_shelf, high_shelf, peak)");
        }
    }

    private final Biquad c;
    private final double[] z1;
    private final double[] z2;

    /**
     * @param q for passes 0.707 is Butterworth; for shelves it is the slope (0.707 = the steepest
     *          without overshoot); for peaks, the bandwidth (higher = narrower)
     */
    public BiquadFilter(Shape shape, double frequencyHz, double gainDb, double q, int rate, int channels) {
        if (!(frequencyHz > 0 && frequencyHz < rate / 2.0)) {
            throw new IllegalArgumentException(
                    "filter frequency must be between 0 and " + rate / 2 + " Hz, was " + frequencyHz);
        }
        if (!(q > 0)) {
            throw new IllegalArgumentException("filter q must be above 0, was " + q);
        }
        double w = 2 * Math.PI * frequencyHz / rate;
        double cos = Math.cos(w);
        double alpha = Math.sin(w) / (2 * q);
        double a = Math.pow(10, gainDb / 40);
        double nb0;
        double nb1;
        double nb2;
        double na0;
        double na1;
        double na2;
        switch (shape) {
            case HIGH_PASS -> {
                nb0 = (1 + cos) / 2;
                nb1 = -(1 + cos);
                nb2 = (1 + cos) / 2;
                na0 = 1 + alpha;
                na1 = -2 * cos;
                na2 = 1 - alpha;
            }
            case LOW_PASS -> {
                nb0 = (1 - cos) / 2;
                nb1 = 1 - cos;
                nb2 = (1 - cos) / 2;
                na0 = 1 + alpha;
                na1 = -2 * cos;
                na2 = 1 - alpha;
            }
            case PEAK -> {
                nb0 = 1 + alpha * a;
                nb1 = -2 * cos;
                nb2 = 1 - alpha * a;
                na0 = 1 + alpha / a;
                na1 = -2 * cos;
                na2 = 1 - alpha / a;
            }
            case LOW_SHELF -> {
                double s = 2 * Math.sqrt(a) * alpha;
                nb0 = a * ((a + 1) - (a - 1) * cos + s);
                nb1 = 2 * a * ((a - 1) - (a + 1) * cos);
                nb2 = a * ((a + 1) - (a - 1) * cos - s);
                na0 = (a + 1) + (a - 1) * cos + s;
                na1 = -2 * ((a - 1) + (a + 1) * cos);
                na2 = (a + 1) + (a - 1) * cos - s;
            }
            case HIGH_SHELF -> {
                double s = 2 * Math.sqrt(a) * alpha;
                nb0 = a * ((a + 1) + (a - 1) * cos + s);
                nb1 = -2 * a * ((a - 1) + (a + 1) * cos);
                nb2 = a * ((a + 1) + (a - 1) * cos - s);
                na0 = (a + 1) - (a - 1) * cos + s;
                na1 = 2 * ((a - 1) - (a + 1) * cos);
                na2 = (a + 1) - (a - 1) * cos - s;
            }
            default -> throw new IllegalArgumentException(shape.toString());
        }
        this.c = new Biquad(nb0 / na0, nb1 / na0, nb2 / na0, na1 / na0, na2 / na0);
        this.z1 = new double[channels];
        this.z2 = new double[channels];
    }

    /** The magnitude response in dB at {@code frequencyHz}, from the coefficients (for tests and docs). */
    public double responseDb(double frequencyHz, int rate) {
        return c.gainDb(frequencyHz, rate);
    }

    @Override
    public void process(float[][] channels, int offset, int frames) {
        int n = Math.min(channels.length, z1.length);
        double b0 = c.b0();
        double b1 = c.b1();
        double b2 = c.b2();
        double a1 = c.a1();
        double a2 = c.a2();
        for (int ch = 0; ch < n; ch++) {
            float[] x = channels[ch];
            double s1 = z1[ch];
            double s2 = z2[ch];
            for (int i = offset, end = offset + frames; i < end; i++) {
                double in = x[i];
                double out = b0 * in + s1;
                s1 = b1 * in - a1 * out + s2;
                s2 = b2 * in - a2 * out;
                x[i] = (float) out;
            }
            // Denormals: a decayed state is flushed to zero rather than crawling through subnormal doubles.
            z1[ch] = Math.abs(s1) < 1e-25 ? 0 : s1;
            z2[ch] = Math.abs(s2) < 1e-25 ? 0 : s2;
        }
    }

    public void reset() {
        Arrays.fill(z1, 0);
        Arrays.fill(z2, 0);
    }
}
