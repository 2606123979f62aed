package dev.scorecast.engine.dsp;

/**
 * Width for a source that has little of its own, without changing its mono sum: a copy of the mid
 * (L + R), delayed by a few milliseconds and high-passed, is added to the side (L - R). Left and
 * right then carry complementary comb filters, which the ear hears as a wide, spread sound, while
 * L + R is what it was (to float rounding), so the part loses nothing on a phone speaker or a mono club system
 * (a plain Haas delay on one channel would comb the mono sum). The high-pass keeps the low end
 * centred.
 *
 * <p>Why it is needed: sampled instruments are mostly mono samples panned, so a width control that
 * only scales the side (see {@link StereoWidth}) has nothing to scale; the produced house mix had
 * its pads and chords at a side/mid of -10 to -12 dB, against -3 to -6 dB for stereo synth pads.
 *
 * <p>Processes channels 0 and 1 in place; a mono input is left as it is.
 */
public final class StereoSpread implements BlockProcessor {

    private final float amount;
    private final float[] ring;
    private int at;
    // Second-order high-pass (RBJ) on the delayed mid.
    private final double b0;
    private final double b1;
    private final double b2;
    private final double a1;
    private final double a2;
    private double x1;
    private double x2;
    private double y1;
    private double y2;

    /**
     * @param amount     the delayed mid's level in the side, 0 to 1 (0.5 puts the side about 6 dB
     *                   under the mid, above the high-pass)
     * @param delayMs    the delay, 1 to 40 ms: parts spread with different delays stay distinct
     * @param highPassHz below this the part stays centred
     */
    public StereoSpread(double amount, double delayMs, double highPassHz, int rate) {
        if (!(amount >= 0 && amount <= 1)) {
            throw new IllegalArgumentException("spread must be 0 to 1, was " + amount);
        }
        if (!(delayMs >= 1 && delayMs <= 40)) {
            throw new IllegalArgumentException("spread delay must be 1 to 40 ms, was " + delayMs);
        }
        if (!(highPassHz > 0 && highPassHz < rate / 2.0)) {
            throw new IllegalArgumentException(
                    "spread high-pass must be between 0 and half the rate, was " + highPassHz);
        }
        this.amount = (float) amount;
        this.ring = new float[Math.max(1, (int) Math.round(delayMs * rate / 1000))];
        double w = 2 * Math.PI * highPassHz / rate;
        double alpha = Math.sin(w) / (2 * 0.707);
        double a0 = 1 + alpha;
        b0 = (1 + Math.cos(w)) / 2 / a0;
        b1 = -(1 + Math.cos(w)) / a0;
        b2 = b0;
        a1 = -2 * Math.cos(w) / a0;
        a2 = (1 - alpha) / a0;
    }

    @Override
    public void process(float[][] channels, int offset, int frames) {
        if (channels.length < 2 || amount == 0) {
            return;
        }
        float[] l = channels[0];
        float[] r = channels[1];
        float[] delayed = ring;
        int pos = at;
        for (int i = offset, end = offset + frames; i < end; i++) {
            float mid = 0.5f * (l[i] + r[i]);
            double x = delayed[pos];
            delayed[pos] = mid;
            if (++pos == delayed.length) {
                pos = 0;
            }
            double y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
            x2 = x1;
            x1 = x;
            y2 = y1;
            y1 = y;
            float side = amount * (float) y;
            l[i] += side;
            r[i] -= side;
        }
        at = pos;
        // Denormals would slow the filter to a crawl once the part rests.
        if (Math.abs(y1) < 1e-20 && Math.abs(y2) < 1e-20) {
            y1 = 0;
            y2 = 0;
        }
    }
}
