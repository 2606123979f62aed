package dev.scorecast.engine.dsp;

import java.util.Arrays;

/**
 * A ping-pong echo locked to the tempo: the input, summed to mono, repeats every {@code beats}
 * beats at {@code bpm}, first on the left, then on the right, and so on, each repeat
 * {@code feedback} quieter and darker (a one-pole low-pass at {@code toneHz} in the loop, as a
 * tape echo loses its highs).
 *
 * <p>In place and <b>wet only</b> (the block becomes the echoes, a send's return); linear and
 * time-invariant, like {@link FdnReverb}.
 */
public final class TempoDelay implements BlockProcessor {

    private final float[] left;
    private final float[] right;
    private final double feedback;
    private final double tone;
    private double lowLeft;
    private double lowRight;
    private int pos;

    public TempoDelay(double beats, double bpm, double feedback, double toneHz, int rate) {
        if (!(beats > 0 && beats <= 4) || !(bpm >= 20 && bpm <= 400)) {
            throw new IllegalArgumentException("delay: 0 to 4 beats at 20 to 400 bpm, was " + beats + " at " + bpm);
        }
        if (!(feedback >= 0 && feedback < 0.95) || !(toneHz > 0)) {
            throw new IllegalArgumentException("delay: feedback 0 to 0.95, tone above 0 Hz");
        }
        int frames = Math.max(1, (int) Math.round(beats * 60 / bpm * rate));
        this.left = new float[frames];
        this.right = new float[frames];
        this.feedback = feedback;
        this.tone = 1 - Math.exp(-2 * Math.PI * toneHz / rate);
    }

    /** The time between repeats, in frames. */
    public int delayFrames() {
        return left.length;
    }

    @Override
    public void process(float[][] channels, int offset, int frames) {
        float[] l = channels[0];
        float[] r = channels.length > 1 ? channels[1] : channels[0];
        double lowL = lowLeft;
        double lowR = lowRight;
        int p = pos;
        int len = left.length;
        for (int i = offset, end = offset + frames; i < end; i++) {
            float in = 0.5f * (l[i] + r[i]);
            float wl = left[p];
            float wr = right[p];
            lowL += (wl - lowL) * tone;
            lowR += (wr - lowR) * tone;
            // ping-pong: the left line is fed by the input and the right's echo, the right by the left's
            left[p] = (float) (in + feedback * lowR);
            right[p] = (float) (feedback * lowL);
            if (++p == len) {
                p = 0;
            }
            l[i] = wl;
            if (r != l) {
                r[i] = wr;
            }
        }
        lowLeft = Math.abs(lowL) < 1e-25 ? 0 : lowL;
        lowRight = Math.abs(lowR) < 1e-25 ? 0 : lowR;
        pos = p;
    }

    public void reset() {
        Arrays.fill(left, 0);
        Arrays.fill(right, 0);
        lowLeft = 0;
        lowRight = 0;
        pos = 0;
    }
}
