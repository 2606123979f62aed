package dev.scorecast.engine.voice.singing;

/**
 * Time-domain pitch-synchronous overlap-add. Output grains are laid one target period apart; each
 * is the two-period, Hann-windowed slice of the source around the pitch mark nearest the matching
 * source instant, so the voice's formants stay where they were while its pitch becomes the target.
 * Unvoiced stretches are copied by plain overlap-add of 5 ms grains.
 *
 * <p>The source instant comes from a piecewise-linear time map: consonants before the vowel keep
 * their length, the steady middle of the vowel stretches (or shrinks) to fill the note, and the
 * consonants after it end with the note. A note too short for that squeezes the whole syllable.
 */
final class Psola {

    private Psola() {}

    static float[] render(SourceSyllable source, int length, PitchCurve curve, int rate) {
        float[] out = new float[length];
        float[] weight = new float[length];
        int unvoicedHop = rate / 200;
        double t = 0;
        while (t < length) {
            double tau = sourceInstant(source, t, length);
            int at = (int) Math.min(source.length() - 1, Math.max(0, Math.round(tau)));
            int centre = (int) Math.round(t);
            if (source.voiced()[at] && source.marks().length > 0) {
                int mark = source.marks()[PitchMarks.nearest(source.marks(), tau)];
                int half = Math.max(
                        2, Math.round(source.period()[mark] > 0 ? source.period()[mark] : source.period()[at]));
                addGrain(source.pcm(), mark, half, out, weight, centre);
                t += rate / curve.hzAt(t);
            } else {
                addGrain(source.pcm(), at, unvoicedHop, out, weight, centre);
                t += unvoicedHop;
            }
        }
        // Where grains pile up (pitch raised) the sum is scaled back; where they thin out (pitch lowered) it is not, so
        // gaps stay quiet.
        for (int i = 0; i < length; i++) {
            if (weight[i] > 1) {
                out[i] /= weight[i];
            }
        }
        return out;
    }

    static double sourceInstant(SourceSyllable s, double t, int length) {
        double head = s.stretchFrom();
        double body = s.stretchTo() - s.stretchFrom();
        double tail = s.length() - s.stretchTo();
        if (head + tail + body / 2 >= length) {
            return t * s.length() / (double) length;
        }
        if (t < head) {
            return t;
        }
        if (t >= length - tail) {
            return s.stretchTo() + (t - (length - tail));
        }
        return head + (t - head) * body / (length - tail - head);
    }

    private static void addGrain(float[] x, int centre, int half, float[] out, float[] weight, int at) {
        for (int k = -half + 1; k < half; k++) {
            int o = at + k;
            if (o < 0 || o >= out.length) {
                continue;
            }
            double w = 0.5 + 0.5 * Math.cos(Math.PI * k / half);
            int i = centre + k;
            float v = i >= 0 && i < x.length ? x[i] : 0;
            out[o] += (float) (w * v);
            weight[o] += (float) w;
        }
    }
}
