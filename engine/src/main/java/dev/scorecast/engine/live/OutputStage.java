package dev.scorecast.engine.live;

import dev.scorecast.engine.dsp.BlockProcessor;
import dev.scorecast.engine.dsp.GainRamp;
import dev.scorecast.engine.media.LiveEncoder;
import dev.scorecast.engine.render.PartChain;
import dev.scorecast.engine.style.Production;
import dev.scorecast.engine.style.ProductionCatalog;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The end of a performance's chain: the genre's live production chain (the {@code live} part of
 * styles/production.json: EQ, saturation and width on the one stereo bus the synthesizer plays
 * every group into, built from the same {@link PartChain} the offline mix runs per stem), a {@link GainRamp} (the offline mix's gain stage) for the master
 * gain (the engine's, and the experience's calibration to the common loudness, ramped over 10 ms
 * when it changes) and for the one-beat fade of a stop, the synthesizer's tail after it, the
 * {@link SoftKnee} that rounds off a loud moment, and the {@link Outlet}s (one encoder per format
 * listened to) that the finished block goes to. Blocks are planar; they are interleaved once, for
 * the encoders.
 *
 * <p>The gain side runs on the render loop; listeners attach and detach from callers' threads.
 * {@link #copy()} for a fork copies the gain side: listeners move on their own.
 */
final class OutputStage {
    /** After a stop, the synthesizer runs this long for reverb tails to die under the faded gain, then rests. */
    private static final int TAIL_FRAMES = Performance.RATE;

    private final float masterGain;
    private final Map<LiveEncoder.Format, Outlet> outlets = new EnumMap<>(LiveEncoder.Format.class);
    /**
     * The last blocks emitted, interleaved, with their first frames (under the outlets' lock): a format's outlet opened
     * later is primed with them, so that its first listener also gets at once the audio already rendered, as much as a
     * plain player needs to start ({@link Outlet}). A fork's stage starts without: its listeners continue their streams.
     */
    private final ArrayDeque<Recent> recent = new ArrayDeque<>();
    /** Chunks at least in each outlet's backlog (and blocks in {@link #recent}): {@link Outlet#BACKLOG} plus the lead's. */
    private int keepBlocks = Outlet.BACKLOG;

    /** A block as 16-bit PCM: the seconds kept for priming cost half the memory of floats, and WAV is 16-bit anyway. */
    private record Recent(long first, int frames, short[] pcm) {
        float[] floats() {
            float[] f = new float[pcm.length];
            for (int i = 0; i < pcm.length; i++) {
                f[i] = pcm[i] / 32767f;
            }
            return f;
        }
    }

    /** Blocks kept in {@link #recent} at least: what the outlet of the lowest bit rate needs to start a plain player. */
    private final int primingBlocks;

    private boolean sealed;
    private final GainRamp gain;
    private final BlockProcessor knee = new SoftKnee();
    private boolean fading;
    private int tailLeft;
    /** The experience's calibration to the common loudness (its gain_db), from the bar line it starts on. */
    private double experienceGain = 1;

    private final float[] interleaved;
    /** The genre whose live chain {@link #production} is, null before the first section. */
    private String genre;

    private BlockProcessor production;

    OutputStage(float masterGain, int blockFrames) {
        this(masterGain, new GainRamp(masterGain, 0), blockFrames);
    }

    private OutputStage(float masterGain, GainRamp gain, int blockFrames) {
        this.masterGain = masterGain;
        this.gain = gain;
        this.interleaved = new float[2 * blockFrames];
        int most = 0;
        for (LiveEncoder.Format f : LiveEncoder.Format.values()) {
            most = Math.max(most, Outlet.primingFrames(f));
        }
        this.primingBlocks = (most + blockFrames - 1) / blockFrames;
    }

    /** The gain side as it is now, with no outlets. */
    OutputStage copy() {
        OutputStage c = new OutputStage(masterGain, gain.copy(), interleaved.length / 2);
        c.fading = fading;
        c.tailLeft = tailLeft;
        c.experienceGain = experienceGain;
        c.genre(genre); // the fork's own chain: filter state is the only thing it does not take over
        return c;
    }

    // ------------------------------------------------------------------ listeners

    /**
     * Adds {@code listener} to the outlet of its format (opened on first use); closes it when the stage has ended. A
     * listener joining music that plays gets the whole backlog ({@link Outlet#add}).
     */
    void attach(Listener listener, boolean continuing, boolean playing) {
        Outlet outlet;
        List<Outlet.Block> prime = null;
        synchronized (outlets) {
            if (sealed) {
                listener.close("the stream ended");
                return;
            }
            outlet = outlets.get(listener.format());
            if (outlet == null) {
                outlet = new Outlet(listener.format());
                outlet.keep(keepBlocks);
                // The recent audio a joining listener needs at once, encoded below on this thread: encoding seconds of
                // it
                // here, under the lock the render loop takes for every block, would hold every stream of the loop.
                int wanted = Outlet.primingFrames(listener.format());
                prime = new ArrayList<>();
                int frames = 0;
                for (var it = recent.descendingIterator(); it.hasNext() && frames < wanted; ) {
                    Recent r = it.next();
                    prime.addFirst(new Outlet.Block(r.first(), r.frames(), r.floats()));
                    frames += r.frames();
                }
                outlet.primingStarts();
                outlets.put(listener.format(), outlet);
            }
        }
        if (prime != null) {
            outlet.prime(prime);
        }
        outlet.add(listener, continuing, playing);
    }

    void detach(Listener listener) {
        Outlet o = listener.outlet;
        if (o != null) {
            o.remove(listener);
        }
    }

    int listeners() {
        synchronized (outlets) {
            return outlets.values().stream().mapToInt(Outlet::listeners).sum();
        }
    }

    /** No listener joins from now on. */
    void seal() {
        synchronized (outlets) {
            sealed = true;
        }
    }

    /** Closes every outlet and its listeners. */
    void close() {
        List<Outlet> all;
        synchronized (outlets) {
            sealed = true;
            all = new ArrayList<>(outlets.values());
            outlets.clear();
        }
        all.forEach(Outlet::close);
    }

    // ------------------------------------------------------------------ the gain side, on the loop

    /** Full gain at once, no fade, no tail: the music starts from silence. */
    void restart() {
        gain.jumpTo(masterGain * experienceGain);
        fading = false;
        tailLeft = 0;
    }

    /** The experience's calibration from now on (ramped over 10 ms while playing). */
    void experienceGainDb(double db) {
        experienceGain = Math.pow(10, db / 20);
        if (!fading) {
            gain.setTarget(masterGain * experienceGain);
        }
    }

    /**
     * The live production chain of {@code id} from now on; kept (with its filter state) while the
     * genre stays, so a section change within a genre is seamless.
     */
    void genre(String id) {
        if (id == null || Objects.equals(id, genre)) {
            return;
        }
        genre = id;
        Production p = ProductionCatalog.builtIn().forGenre(id);
        // No sends in the live part, so the echo's tempo (the 120) is never used; no sidechain key.
        production = p.live() == null
                ? null
                : new PartChain(p, p.live(), null, 120, Performance.RATE, interleaved.length / 2);
    }

    /** Fades out over {@code fadeFrames}, then lets the synthesizer's tail run out under the silence. */
    void fadeOut(int fadeFrames) {
        gain.setTarget(0, fadeFrames);
        fading = true;
        tailLeft = fadeFrames + TAIL_FRAMES;
    }

    /** Whether a stopped performance's tail is still running. */
    boolean tailing() {
        return tailLeft > 0;
    }

    /** Counts a stopped block off the tail; true when the tail has just run out. */
    boolean tailEnds(int frames) {
        tailLeft -= frames;
        return tailLeft <= 0;
    }

    /**
     * Applies the genre's chain, the gain (and fade) and the knee to {@code n} planar stereo frames
     * in place; {@code faded} runs once when a fade has reached silence.
     */
    void apply(float[][] block, int n, Runnable faded) {
        if (production != null) {
            production.process(block, 0, n);
        }
        gain.process(block, 0, n);
        if (fading && gain.settled()) {
            fading = false;
            faded.run();
        }
        knee.process(block, 0, n);
    }

    /** Joining listeners get {@code blocks} blocks of what was rendered last at once from now on (at least the backlog's). */
    void keep(int blocks) {
        List<Outlet> all;
        synchronized (outlets) {
            if (blocks == keepBlocks) {
                return;
            }
            keepBlocks = Math.max(Outlet.BACKLOG, blocks);
            all = List.copyOf(outlets.values());
        }
        all.forEach(o -> o.keep(keepBlocks));
    }

    /** Hands the finished block ({@code n} frames from performance frame {@code first}) to every outlet. */
    void emit(float[][] block, int n, long first) {
        float[] l = block[0];
        float[] r = block[1];
        for (int i = 0; i < n; i++) {
            interleaved[2 * i] = l[i];
            interleaved[2 * i + 1] = r[i];
        }
        List<Outlet> targets;
        synchronized (outlets) {
            int kept = Math.max(keepBlocks, primingBlocks);
            Recent last = recent.size() >= kept ? recent.removeFirst() : null;
            short[] copy = last != null && last.pcm().length == 2 * n ? last.pcm() : new short[2 * n];
            for (int i = 0; i < 2 * n; i++) {
                copy[i] = (short) Math.round(Math.clamp(interleaved[i], -1f, 1f) * 32767f);
            }
            recent.addLast(new Recent(first, n, copy));
            while (recent.size() > kept) {
                recent.removeFirst();
            }
            targets = List.copyOf(outlets.values());
        }
        if (targets.isEmpty()) {
            return;
        }
        for (Outlet outlet : targets) {
            outlet.accept(interleaved, n, first);
        }
    }
}
