package dev.scorecast.engine.render;

import dev.scorecast.engine.dsp.BiquadFilter;
import dev.scorecast.engine.dsp.BlockProcessor;
import dev.scorecast.engine.dsp.FdnReverb;
import dev.scorecast.engine.dsp.Saturator;
import dev.scorecast.engine.dsp.SidechainCompressor;
import dev.scorecast.engine.dsp.SidechainKey;
import dev.scorecast.engine.dsp.StereoSpread;
import dev.scorecast.engine.dsp.StereoWidth;
import dev.scorecast.engine.dsp.TempoDelay;
import dev.scorecast.engine.style.Production;
import java.util.ArrayList;
import java.util.List;

/**
 * One instrument group's production chain, in place on its stereo bus: EQ, saturation, the kick's
 * sidechain (when the part ducks), stereo width and spread; then the result is sent to the part's own copy of
 * the genre's room ({@link FdnReverb}, through a 250 Hz high-pass so the room never muddies the
 * low end) and echo ({@link TempoDelay}), and their returns are added back. Because the room and
 * the echo are linear, a part's own copy returns exactly its share of what one shared send would
 * return, so the stems carry their effects and still sum to the mix.
 *
 * <p>A plain object the offline mixer builds per stem and the live path can build per performance.
 * Scratch buffers are sized for {@code maxBlock} frames and grow once if a block is larger.
 */
public final class PartChain implements BlockProcessor {

    static final double RETURN_HIGH_PASS_HZ = 250;
    /** Below this a spread part stays centred, as the low end of a mix does. */
    static final double SPREAD_HIGH_PASS_HZ = 300;

    private final BlockProcessor[] inserts;
    private final SidechainCompressor sidechain;
    private final float reverbSend;
    private final float delaySend;
    private final BiquadFilter reverbHighPass;
    private final FdnReverb reverb;
    private final TempoDelay delay;
    private float[][] reverbBus;
    private float[][] delayBus;
    /** Frames after the last sounding input for the chain to ring out: the room's decay, the echo's repeats, the filters. */
    private final long tailFrames;
    /** Frames since the input last sounded (above {@value #SILENT}). */
    private long quietFrames;

    /** An input whose samples all stay under this (-140 dBFS) is silence: Gervill's idle output, a part that rests. */
    static final float SILENT = 1e-7f;

    /**
     * @param key the kick's key, shared by every chain of the mix; null when nothing ducks (a part
     *            asking for the sidechain then stays un-ducked)
     * @param bpm the tempo the echo locks to
     */
    public PartChain(
            Production production, Production.Part part, SidechainKey key, double bpm, int rate, int maxBlock) {
        List<BlockProcessor> inserts = new ArrayList<>();
        for (Production.Band b : part.eq()) {
            inserts.add(new BiquadFilter(BiquadFilter.Shape.fromWire(b.type()), b.hz(), b.db(), b.q(), rate, 2));
        }
        if (part.saturationDb() > 0) {
            inserts.add(new Saturator(part.saturationDb(), rate));
        }
        if (part.sidechain() && key != null) {
            Production.Sidechain s = production.sidechain();
            sidechain = new SidechainCompressor(
                    key, s.thresholdDbfs(), s.ratio(), s.depthDb(), s.attackMs(), s.releaseMs(), rate);
            inserts.add(sidechain);
        } else {
            sidechain = null;
        }
        if (part.width() != 1.0) {
            inserts.add(new StereoWidth(part.width(), rate));
        }
        if (part.spread() > 0) {
            inserts.add(new StereoSpread(part.spread(), part.spreadMs(), SPREAD_HIGH_PASS_HZ, rate));
        }
        this.inserts = inserts.toArray(BlockProcessor[]::new);
        if (!(part.reverb() >= 0 && part.reverb() <= 1) || !(part.delay() >= 0 && part.delay() <= 1)) {
            throw new IllegalArgumentException("send levels must be 0 to 1");
        }
        this.reverbSend = (float) part.reverb();
        this.delaySend = (float) part.delay();
        if (reverbSend > 0) {
            Production.Reverb r = production.reverb();
            reverb = new FdnReverb(r.decaySeconds(), r.damping(), r.preDelayMs(), r.size(), rate);
            reverbHighPass = new BiquadFilter(BiquadFilter.Shape.HIGH_PASS, RETURN_HIGH_PASS_HZ, 0, 0.707, rate, 2);
        } else {
            reverb = null;
            reverbHighPass = null;
        }
        if (delaySend > 0) {
            Production.Delay d = production.delay();
            delay = new TempoDelay(d.beats(), bpm, d.feedback(), d.toneHz(), rate);
        } else {
            delay = null;
        }
        long tail = rate / 10;
        if (reverb != null) {
            // 90 dB under the input: 1.5 decay times, plus the pre-delay.
            tail += (long) (1.5 * production.reverb().decaySeconds() * rate
                    + production.reverb().preDelayMs() * rate / 1000);
        }
        if (delay != null && production.delay().feedback() > 0) {
            double repeats =
                    Math.ceil(Math.log(3e-5) / Math.log(production.delay().feedback())) + 1;
            tail += (long) (repeats * delay.delayFrames());
        } else if (delay != null) {
            tail += delay.delayFrames();
        }
        this.tailFrames = tail;
        this.quietFrames = tail; // nothing to ring out at the start
        reverbBus = new float[2][reverb == null ? 0 : maxBlock];
        delayBus = new float[2][delay == null ? 0 : maxBlock];
    }

    @Override
    public void process(float[][] channels, int offset, int frames) {
        // A part that rests (most stems do for long stretches: fx between hits, tops and melody in
        // quiet sections) costs nothing once its room and echo have died away: silence in, the
        // same silence out. The sidechain's envelope still follows the kick meanwhile.
        if (silent(channels, offset, frames)) {
            if (quietFrames >= tailFrames) {
                if (sidechain != null) {
                    sidechain.follow(frames);
                }
                return;
            }
            quietFrames += frames;
        } else {
            quietFrames = 0;
        }
        for (int k = 0; k < inserts.length; k++) { // indexed: an iterator would be garbage per block
            inserts[k].process(channels, offset, frames);
        }
        if (reverb != null) {
            reverbBus = send(channels, offset, frames, reverbSend, reverbBus);
            reverbHighPass.process(reverbBus, 0, frames);
            reverb.process(reverbBus, 0, frames);
        }
        if (delay != null) {
            delayBus = send(channels, offset, frames, delaySend, delayBus);
            delay.process(delayBus, 0, frames);
        }
        if (reverb != null) {
            addReturn(reverbBus, channels, offset, frames);
        }
        if (delay != null) {
            addReturn(delayBus, channels, offset, frames);
        }
    }

    private static boolean silent(float[][] channels, int offset, int frames) {
        for (float[] x : channels) {
            for (int i = offset, end = offset + frames; i < end; i++) {
                if (x[i] > SILENT || x[i] < -SILENT) {
                    return false;
                }
            }
        }
        return true;
    }

    private static float[][] send(float[][] from, int offset, int frames, float level, float[][] bus) {
        if (bus[0].length < frames) {
            bus = new float[2][frames];
        }
        float[] r = from.length > 1 ? from[1] : from[0];
        for (int i = 0; i < frames; i++) {
            bus[0][i] = from[0][offset + i] * level;
            bus[1][i] = r[offset + i] * level;
        }
        return bus;
    }

    private static void addReturn(float[][] bus, float[][] to, int offset, int frames) {
        for (int c = 0; c < to.length; c++) {
            float[] out = to[c];
            float[] in = bus[Math.min(c, 1)];
            for (int i = 0; i < frames; i++) {
                out[offset + i] += in[i];
            }
        }
    }

    /** The deepest sidechain reduction so far, dB; 0 when the part does not duck. */
    public double maxSidechainDb() {
        return sidechain == null ? 0 : sidechain.maxReductionDb();
    }

    /**
     * A rough relative cost per frame (a biquad is 1; the room about 8, the echo 1), for sharing
     * chains between threads.
     */
    public double cost() {
        return 1 + inserts.length + (reverb == null ? 0 : 9) + (delay == null ? 0 : 1);
    }

    /** Whether this part ducks under the kick. */
    public boolean ducks() {
        return sidechain != null;
    }
}
