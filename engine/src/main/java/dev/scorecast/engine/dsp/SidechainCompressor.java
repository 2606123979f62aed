package dev.scorecast.engine.dsp;

/**
 * Ducks a part under the kick, the "pump" of dance music: the gain reduction follows how far the
 * {@link SidechainKey}'s level is over the threshold, times {@code 1 - 1/ratio}, never deeper
 * than {@code depthDb}; it falls in {@code attackMs} and recovers over {@code releaseMs}
 * (one-pole, in dB, so the recovery is an even swell, not a jump). Stereo-linked, in place.
 *
 * <p>It reads the key's levels for the same block, so the owner calls {@link SidechainKey#analyse}
 * before {@link #process} with the same {@code frames}; offset 0 of the key is {@code offset} here.
 */
public final class SidechainCompressor implements BlockProcessor {

    private final SidechainKey key;
    private final double thresholdDb;
    private final double slope;
    private final double depthDb;
    private final double attack;
    private final double release;
    private double reductionDb;
    private double maxReductionDb;

    public SidechainCompressor(
            SidechainKey key,
            double thresholdDbfs,
            double ratio,
            double depthDb,
            double attackMs,
            double releaseMs,
            int rate) {
        if (!(ratio >= 1) || !(depthDb >= 0) || !(attackMs > 0) || !(releaseMs > 0)) {
            throw new IllegalArgumentException("sidechain: ratio >= 1, depth >= 0, attack and release > 0");
        }
        this.key = key;
        this.thresholdDb = thresholdDbfs;
        this.slope = 1 - 1 / ratio;
        this.depthDb = depthDb;
        this.attack = Smoothing.coefficient(attackMs, rate);
        this.release = Smoothing.coefficient(releaseMs, rate);
    }

    @Override
    public void process(float[][] channels, int offset, int frames) {
        if (key.frames() < frames) {
            throw new IllegalStateException("the sidechain key holds " + key.frames() + " frames, the block " + frames);
        }
        double gr = reductionDb;
        double max = maxReductionDb;
        float[] l = channels[0];
        float[] r = channels.length > 1 ? channels[1] : null;
        for (int i = 0; i < frames; i++) {
            double over = key.levelDb(i) - thresholdDb;
            double want = over <= 0 ? 0 : Math.min(depthDb, over * slope);
            gr += (want - gr) * (want > gr ? attack : release);
            if (gr < 1e-4) {
                gr = want > 0 ? gr : 0;
                if (gr == 0) {
                    continue;
                }
            }
            float g = (float) Math.exp(-gr * (Math.log(10) / 20));
            l[offset + i] *= g;
            if (r != null) {
                r[offset + i] *= g;
            }
            if (gr > max) {
                max = gr;
            }
        }
        reductionDb = gr;
        maxReductionDb = max;
    }

    /** Advances the envelope over {@code frames} of the key's last block without touching any audio (a resting part). */
    public void follow(int frames) {
        double gr = reductionDb;
        for (int i = 0; i < frames; i++) {
            double over = key.levelDb(i) - thresholdDb;
            double want = over <= 0 ? 0 : Math.min(depthDb, over * slope);
            gr += (want - gr) * (want > gr ? attack : release);
        }
        reductionDb = gr < 1e-4 ? 0 : gr;
    }

    /** The deepest reduction so far, dB. */
    public double maxReductionDb() {
        return maxReductionDb;
    }

    public void reset() {
        reductionDb = 0;
    }
}
