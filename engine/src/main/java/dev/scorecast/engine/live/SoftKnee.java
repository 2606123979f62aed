package dev.scorecast.engine.live;

import dev.scorecast.engine.dsp.BlockProcessor;

/**
 * The live stream's last stage: unchanged below a knee at 0.8 of full scale, above it bent smoothly
 * (tanh) towards full scale, so a loud moment rounds off instead of clipping. It holds no state and
 * adds no latency.
 */
final class SoftKnee implements BlockProcessor {
    private static final float KNEE = 0.8f;

    @Override
    public void process(float[][] channels, int offset, int frames) {
        for (float[] c : channels) {
            for (int i = offset; i < offset + frames; i++) {
                c[i] = soften(c[i]);
            }
        }
    }

    static float soften(float x) {
        float a = Math.abs(x);
        if (a <= KNEE) {
            return x;
        }
        float over = (a - KNEE) / (1 - KNEE);
        return Math.copySign(KNEE + (1 - KNEE) * (float) Math.tanh(over), x);
    }
}
