package dev.scorecast.engine.dsp;

/**
 * The kick as a control signal: the drum bus mixed to mono, band-limited to the kick's body (a
 * fourth-order low-pass, {@value #KICK_BAND_HZ} Hz: hats and snare crack fall away, toms mostly
 * too) and followed by a peak detector with instant attack and a {@value #HOLD_RELEASE_MS} ms
 * release, so a kick's level is held over its few cycles. The level of each frame of the last
 * block, in dBFS, is what the {@link SidechainCompressor}s that share this key read.
 *
 * <p>One key per performance or offline mix: {@link #analyse} once per block, before the ducked
 * processors run on the same block. Grows its level buffer on the first larger block, never again.
 */
public final class SidechainKey {

    static final double KICK_BAND_HZ = 110;
    static final double HOLD_RELEASE_MS = 25;
    /** The level given to silence: far below any threshold. */
    static final float FLOOR_DB = -150;

    private final BiquadFilter low1;
    private final BiquadFilter low2;
    private final double release;
    private float[][] mono = new float[1][0];
    private float[] levelDb = new float[0];
    private double envelope;
    private int frames;

    public SidechainKey(int rate) {
        this.low1 = new BiquadFilter(BiquadFilter.Shape.LOW_PASS, KICK_BAND_HZ, 0, 0.541, rate, 1);
        this.low2 = new BiquadFilter(BiquadFilter.Shape.LOW_PASS, KICK_BAND_HZ, 0, 1.307, rate, 1);
        this.release = Math.exp(-1000.0 / (HOLD_RELEASE_MS * rate));
    }

    /** Reads frames {@code offset .. offset + frames - 1} of the drum bus (not changed). */
    public void analyse(float[][] drums, int offset, int frames) {
        if (mono[0].length < frames) {
            mono = new float[1][frames];
            levelDb = new float[frames];
        }
        float[] m = mono[0];
        float[] l = drums[0];
        float[] r = drums.length > 1 ? drums[1] : drums[0];
        for (int i = 0; i < frames; i++) {
            m[i] = 0.5f * (l[offset + i] + r[offset + i]);
        }
        low1.process(mono, 0, frames);
        low2.process(mono, 0, frames);
        double env = envelope;
        for (int i = 0; i < frames; i++) {
            double a = Math.abs(m[i]);
            env = a > env ? a : env * release;
            levelDb[i] = env < 1e-7 ? FLOOR_DB : (float) (20 * Math.log10(env));
        }
        envelope = env < 1e-12 ? 0 : env;
        this.frames = frames;
    }

    /** No drums this block: the key falls as silence would make it. */
    public void silence(int frames) {
        if (levelDb.length < frames) {
            mono = new float[1][frames];
            levelDb = new float[frames];
        }
        double env = envelope;
        for (int i = 0; i < frames; i++) {
            env *= release;
            levelDb[i] = env < 1e-7 ? FLOOR_DB : (float) (20 * Math.log10(env));
        }
        envelope = env < 1e-12 ? 0 : env;
        this.frames = frames;
    }

    /** The key's level at frame {@code i} of the last block analysed, dBFS. */
    float levelDb(int i) {
        return levelDb[i];
    }

    int frames() {
        return frames;
    }

    public void reset() {
        low1.reset();
        low2.reset();
        envelope = 0;
    }
}
