package dev.scorecast.engine.live;

import com.sun.media.sound.AudioSynthesizer;
import com.sun.media.sound.SoftSynthesizer;
import dev.scorecast.engine.media.LiveEncoder;
import dev.scorecast.engine.plan.Continuation;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.Section;
import dev.scorecast.engine.render.SoundBank;
import dev.scorecast.engine.style.Genre;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import javax.sound.midi.InvalidMidiDataException;
import javax.sound.midi.MidiUnavailableException;
import javax.sound.midi.Receiver;
import javax.sound.midi.ShortMessage;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioInputStream;

/**
 * One real-time performance: endless music composed section by section, played by ONE Gervill
 * synthesizer (every instrument group on its own MIDI channel, instruments shared through the
 * {@link SoundBank}), cut into blocks that go to the {@link Outlet}s of the formats listened to.
 *
 * <p>Everything below the public methods runs on the render loop only: per block it drains the
 * control queue, applies what falls due (bar-line changes, the next section), hands the block's
 * MIDI cues to the synthesizer at their exact sample, reads the block, mixes the sung lines of
 * {@link LiveVocals} into it, and publishes an immutable {@link Transport}. Musical time is counted
 * in beats, so tempo changes (the relative tempo of intensity, a client's plan) move every later
 * cue and sung line with them.
 */
public final class Performance implements AutoCloseable {
    public static final int RATE = LiveEncoder.RATE;
    // As in the offline Renderer: 320-frame control blocks, and voices sound one control block after
    // their note-on. (100 Hz blocks would save a twentieth of the synthesizer's time, but a note
    // that has to take over a voice starts at the next block boundary, and 10 ms late is audible on a hi-hat.)
    private static final float CONTROL_RATE = 150f;
    private static final int CONTROL_BLOCK = (int) (RATE / CONTROL_RATE);
    private static final int SYNTH_LATENCY = CONTROL_BLOCK;
    /** After a stop, the synthesizer runs this long for reverb tails to die under the faded gain, then rests. */
    private static final int TAIL_FRAMES = RATE;
    private static final AtomicLong IDS = new AtomicLong();

    final String id = "perf-" + IDS.incrementAndGet();
    private final LiveContext context;
    private final dev.scorecast.engine.music.Composer composer = new dev.scorecast.engine.music.Composer();
    private final Queue<Control> controls = new ConcurrentLinkedQueue<>();
    private final Map<LiveEncoder.Format, Outlet> outlets = new EnumMap<>(LiveEncoder.Format.class);
    private volatile Transport transport;
    private volatile NowPlaying now = NowPlaying.IDLE;
    /** Real time of frame 0, for pacing: block k is due at epoch + k frames, minus the look-ahead. */
    final long epochNanos;
    volatile boolean closed;
    /** Held by the render loop rendering this performance now; loops skip a performance another one holds. */
    private final java.util.concurrent.atomic.AtomicBoolean rendering = new java.util.concurrent.atomic.AtomicBoolean();

    // ---- render-loop state ----
    private AudioSynthesizer synth;
    private AudioInputStream stream;
    private Receiver receiver;
    private final Set<Integer> loaded = new HashSet<>();
    private long synthFrame;
    private long frame;
    private double beat;
    private long barsBefore; // whole bars before the current section
    private double tempoNow;
    private double glideFrom;
    private double glideTo;
    private double glideDone = 1; // 0..1 through a one-beat glide
    private boolean playing;
    private float gain = 1;
    private float fadeStep;
    private int tailLeft;
    private Experience experience;
    /** The experience's calibration to the common loudness (its gain_db), from the bar line it starts on. */
    private float experienceGain = 1;
    private Genre genre;
    private long seed;
    private double intensity = 0.5;
    private boolean vocalsWanted;
    /** The sung layer: lines sung off the loop, mixed in at their beat. */
    private LiveVocals vocals;
    private double baseTempo;
    private Continuation.State state;
    private String home;
    private final ArrayDeque<Section> planned = new ArrayDeque<>();
    private boolean clientPlan;
    private Segment current;
    private Section upcoming;
    /** The section after {@code upcoming}, chosen when upcoming's composition was started. */
    private Section following;
    /** {@code upcoming} being composed off the loop, for when it begins. */
    private Prepared prepared;
    private long noteIds;
    private final PriorityQueue<Cue> cues = new PriorityQueue<>(Cue.ORDER);
    private final PriorityQueue<Action> actions = new PriorityQueue<>((a, b) -> Double.compare(a.beat, b.beat));
    private final long[] sounding = new long[16 * 128];
    private final int[] soundingVelocity = new int[16 * 128];
    private final int[][] channelSetup = new int[16][]; // program, drums, volume, pan
    private final float[] block;
    private final byte[] bytes;
    private final FloatBuffer floats;

    /** A section being played: its cues start at {@code startBeat}; {@code bar} counts whole bars before it. */
    private record Segment(Section section, double startBeat, double beats, long bar) {
        double end() {
            return startBeat + beats;
        }

        int beatsPerBar() {
            return section.beatsPerBar();
        }
    }

    /** A section composed ahead on the composing thread, to start at beat {@code at}. */
    private record Prepared(Section section, double at, java.util.concurrent.CompletableFuture<SectionScore.Composed> score) {}

    /** Something that happens when the music reaches a beat (a bar line); told that beat. */
    private record Action(double beat, java.util.function.DoubleConsumer run) {}

    Performance(LiveContext context, long epochNanos) {
        this.context = context;
        this.epochNanos = epochNanos;
        this.block = new float[2 * context.blockFrames()];
        this.bytes = new byte[context.blockFrames() * 8];
        this.floats = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
        this.vocals = new LiveVocals(id, context.phrases(), epochNanos, context.lookaheadFrames(), context.blockFrames());
        publish();
    }

    // ------------------------------------------------------------------ callers' side

    void send(Control control) {
        controls.add(control);
    }

    public Transport transport() {
        return transport;
    }

    public NowPlaying now() {
        return now;
    }

    /** Frames emitted so far. */
    long frame() {
        return transport.frame();
    }

    /** The outlet for {@code format}, opened on first use; listeners attach there. */
    void attach(Listener listener) {
        attach(listener, false);
    }

    /**
     * As {@link #attach(Listener)}; {@code continuing}: the listener comes from a performance this
     * one was forked from, and its stream goes on (a WAV listener gets no second header).
     */
    private void attach(Listener listener, boolean continuing) {
        Outlet outlet;
        synchronized (outlets) {
            if (closed) {
                listener.close("the stream ended");
                return;
            }
            outlet = outlets.computeIfAbsent(listener.format(), Outlet::new);
        }
        outlet.add(listener, continuing);
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

    // ------------------------------------------------------------------ the render loop

    /** Takes the performance for one loop's turn: false when another loop has it. */
    boolean claim() {
        return rendering.compareAndSet(false, true);
    }

    /** Ends the turn; what the turn changed is visible to the loop that claims it next. */
    void release() {
        rendering.set(false);
    }

    /** Renders every block due by {@code nowNanos} (plus the look-ahead); returns the blocks rendered. */
    int pump(long nowNanos) {
        if (closed) {
            dispose();
            return -1;
        }
        long due = (nowNanos - epochNanos) * RATE / 1_000_000_000L + context.lookaheadFrames();
        int rendered = 0;
        while (frame + context.blockFrames() <= due && !closed) {
            renderBlock();
            rendered++;
        }
        return rendered;
    }

    /** Whether the loop has fallen behind real time (a block is due that should already have been heard). */
    boolean late(long nowNanos) {
        return frame < (nowNanos - epochNanos) * RATE / 1_000_000_000L;
    }

    private void renderBlock() {
        int n = context.blockFrames();
        drainControls();
        if (playing || tailLeft > 0) {
            double tempo = playing ? tempoNow : 0;
            double beatsPerFrame = tempo / 60.0 / RATE;
            if (playing) {
                double horizon = beat + (n + SYNTH_LATENCY + CONTROL_BLOCK) * beatsPerFrame;
                dispatch(horizon, beatsPerFrame);
            }
            readSynth(n);
            singAhead();
            vocals.mixInto(block, n, frame, beat, playing ? beatsPerFrame : 0);
            applyGain(n);
            if (playing) {
                beat += n * beatsPerFrame;
                advanceGlide(n * beatsPerFrame);
            } else {
                tailLeft -= n;
                if (tailLeft <= 0) {
                    closeSynth(); // a stopped stream costs no synthesizer until it starts again
                }
            }
        } else {
            Arrays.fill(block, 0, 2 * n, 0f);
        }
        long first = frame;
        frame += n;
        publish();
        List<Outlet> targets;
        synchronized (outlets) {
            targets = List.copyOf(outlets.values());
        }
        for (Outlet outlet : targets) {
            outlet.accept(block, n, first);
        }
    }

    private void drainControls() {
        Control c;
        while ((c = controls.poll()) != null) {
            switch (c) {
                case Control.Start s -> start(s);
                case Control.Stop ignored -> stop();
                case Control.SetIntensity s -> setIntensity(s.intensity());
                case Control.SetVocals s -> setVocals(s.vocals(), s.applied());
                case Control.ReplacePlan r -> replace(r);
                case Control.Fork f -> fork(f);
            }
        }
    }

    // ------------------------------------------------------------------ controls, on the loop

    private void start(Control.Start s) {
        java.util.function.DoubleConsumer begin = at -> {
            experience = s.experience();
            experienceGain = (float) Math.pow(10, experience.gainDb() / 20);
            genre = context.genres().find(experience.genre()).orElseThrow();
            seed = experience.seed();
            intensity = s.intensity();
            vocalsWanted = s.vocals();
            vocals.switchAt(at, s.vocals());
            vocals.relativeTempo(relativeTempo());
            baseTempo = experience.tempo();
            state = null;
            home = null;
            planned.clear();
            clientPlan = false;
            following = null;
            prepared = null;
            upcoming = nextSection();
            beginSection(at, barAt(at));
            tempoNow = targetTempo();
            glideDone = 1;
        };
        if (playing) {
            double at = nextBarLine();
            s.applied().complete(appliesAt(at));
            schedule(at, begin);
        } else {
            openSynth();
            cues.clear();
            actions.clear();
            vocals.reset(false);
            gain = 1;
            fadeStep = 0;
            tailLeft = 0;
            playing = true;
            begin.accept(beat);
            s.applied().complete(new AppliesAt(barNow(), beat, frame, frame / (double) RATE));
        }
    }

    private void stop() {
        if (!playing) {
            return;
        }
        barsBefore = barNow();
        playing = false;
        // Fade over one beat at the tempo now, then silence the synthesizer.
        int fadeFrames = (int) Math.max(1, RATE * 60.0 / Math.max(1, tempoNow));
        fadeStep = gain / fadeFrames;
        tailLeft = fadeFrames + TAIL_FRAMES;
        cues.clear();
        actions.clear();
        vocals.stop();
        current = null;
        publishNow();
    }

    private void setIntensity(double value) {
        intensity = value;
        vocals.relativeTempo(relativeTempo()); // lines not yet started are sung again at the new tempo
        if (!playing) {
            publishNow();
            return;
        }
        glideFrom = tempoNow;
        glideTo = targetTempo();
        glideDone = 0;
        if (!clientPlan && current != null) {
            // Density follows at the next bar line: the rest of this section re-arranged at the new level.
            double at = nextBarLine();
            schedule(at, ignored -> {
                if (current == null || clientPlan) {
                    return;
                }
                Section releveled = Continuation.relevel(genre, current.section(), levelFor(current.section()), true, seed);
                current = new Segment(releveled, current.startBeat(), current.beats(), current.bar());
                recompose(at);
                upcoming = upcoming == null ? null : Continuation.relevel(genre, upcoming, levelFor(upcoming), true, seed);
                following = following == null ? null : Continuation.relevel(genre, following, levelFor(following), true, seed);
                if (upcoming != null && following != null) {
                    prepareUpcoming();
                }
            });
        }
        publishNow();
    }

    private void setVocals(boolean on, java.util.concurrent.CompletableFuture<AppliesAt> applied) {
        vocalsWanted = on;
        if (!playing) {
            publishNow();
            applied.complete(new AppliesAt(barNow(), beat, frame, frame / (double) RATE));
            return;
        }
        double at = nextBarLine();
        applied.complete(appliesAt(at));
        vocals.switchAt(at, on);
        publishNow();
    }

    private void replace(Control.ReplacePlan r) {
        Plan plan = r.plan();
        java.util.function.DoubleConsumer apply = at -> {
            genre = context.genres().find(plan.genre()).orElseThrow();
            seed = plan.seed();
            planned.clear();
            planned.addAll(plan.sections());
            clientPlan = true;
            baseTempo = plan.sections().getLast().tempo();
            state = null;
            home = plan.sections().getFirst().key();
            following = null;
            prepared = null;
            upcoming = nextSection();
            beginSection(at, barAt(at));
        };
        if (!playing) {
            if (experience == null) {
                experience = context.experiences().first();
            }
            openSynth();
            cues.clear();
            actions.clear();
            gain = 1;
            fadeStep = 0;
            tailLeft = 0;
            playing = true;
            vocals.reset(vocalsWanted);
            apply.accept(beat);
            tempoNow = targetTempo();
            r.applied().complete(new AppliesAt(barNow(), beat, frame, frame / (double) RATE));
            return;
        }
        double at = nextBarLine();
        r.applied().complete(appliesAt(at));
        schedule(at, when -> {
            apply.accept(when);
            tempoNow = targetTempo();
            glideDone = 1;
        });
    }

    private void fork(Control.Fork f) {
        Performance copy = new Performance(context, epochNanos);
        copy.frame = frame;
        copy.beat = beat;
        copy.barsBefore = barsBefore;
        copy.tempoNow = tempoNow;
        copy.glideFrom = glideFrom;
        copy.glideTo = glideTo;
        copy.glideDone = glideDone;
        copy.playing = playing;
        copy.gain = gain;
        copy.fadeStep = fadeStep;
        copy.tailLeft = tailLeft;
        copy.experience = experience;
        copy.experienceGain = experienceGain;
        copy.genre = genre;
        copy.seed = seed;
        copy.intensity = intensity;
        copy.vocalsWanted = vocalsWanted;
        copy.vocals = vocals.copyFor(copy.id, epochNanos);
        copy.baseTempo = baseTempo;
        copy.state = state;
        copy.home = home;
        copy.planned.addAll(planned);
        copy.clientPlan = clientPlan;
        copy.current = current;
        copy.upcoming = upcoming;
        copy.following = following;
        copy.prepared = prepared; // its result is immutable: both may take it
        copy.noteIds = noteIds;
        copy.cues.addAll(cues);
        // Actions hold closures over this performance; the copy re-creates the one kind it needs: the section change.
        if (current != null) {
            copy.schedule(current.end(), when -> copy.advanceSection());
        }
        for (int ch = 0; ch < 16; ch++) {
            copy.channelSetup[ch] = channelSetup[ch];
        }
        if (playing || tailLeft > 0) {
            copy.openSynth();
            for (int ch = 0; ch < 16; ch++) {
                if (channelSetup[ch] != null) {
                    copy.applyVoice(ch, channelSetup[ch]);
                }
            }
            // Notes sounding at the fork are struck again so that held chords carry on.
            for (int k = 0; k < sounding.length; k++) {
                if (sounding[k] != 0) {
                    copy.sounding[k] = sounding[k];
                    copy.soundingVelocity[k] = soundingVelocity[k];
                    copy.sendNow(ShortMessage.NOTE_ON, k / 128, k % 128, soundingVelocity[k]);
                }
            }
        }
        copy.publish();
        copy.now = now;
        for (Listener l : f.listeners()) {
            detach(l);
            copy.attach(l, true);
        }
        f.forked().complete(copy);
    }

    // ------------------------------------------------------------------ sections

    private Section nextSection() {
        if (!planned.isEmpty()) {
            return planned.poll();
        }
        Section s = Continuation.next(genre, state, baseTempo, intensity, true, seed);
        home = home == null ? s.key() : home;
        state = Continuation.after(s, state == null ? 0 : state.index() + 1, home);
        return s;
    }

    /** The intensity a section plays at: the one asked for, breathing as the section's label says. */
    private double levelFor(Section s) {
        double lift = switch (s.label()) {
            case "peak" -> 0.18;
            case "breakdown", "outro" -> -0.2;
            case "intro" -> -0.1;
            default -> 0.05;
        };
        return Math.clamp(intensity + lift, 0, 1);
    }

    /**
     * Makes {@code upcoming} the section sounding from {@code at} and queues its cues (composed
     * ahead when possible), then starts composing the section after it off the loop: composing
     * takes 7 ms on average and tens of ms at worst, which a render loop must not spend.
     */
    private void beginSection(double at, long bar) {
        Section section = upcoming;
        Section next = following != null ? following : nextSection();
        following = null;
        SectionScore.Composed composed = takePrepared(section, at);
        upcoming = next;
        current = new Segment(section, at, section.bars() * (double) section.beatsPerBar(), bar);
        cues.removeIf(c -> c.beat() >= at - 1e-9 && c.order() != Cue.OFF);
        actions.removeIf(a -> a.beat() >= at - 1e-9);
        if (composed == null) {
            composed = SectionScore.compose(composer, genre.id(), seed + bar, section, upcoming, at, noteIds);
            noteIds += NOTE_RANGE;
        }
        queue(composed, at);
        schedule(current.end(), when -> advanceSection());
        following = nextSection();
        prepareUpcoming();
        publishNow();
    }

    /** Note ids reserved per composed section, so that sections composed apart never share one. */
    private static final long NOTE_RANGE = 1 << 20;

    private void prepareUpcoming() {
        Section s = upcoming;
        Section n = following;
        double at = current.end();
        long bar = current.bar() + current.section().bars();
        long first = noteIds;
        noteIds += NOTE_RANGE;
        String g = genre.id();
        long sectionSeed = seed + bar;
        prepared = new Prepared(s, at, java.util.concurrent.CompletableFuture.supplyAsync(
                () -> SectionScore.compose(composer, g, sectionSeed, s, n, at, first), context.composing()));
    }

    /** The prepared score of {@code section} at {@code at}, waiting for it if need be; null when what was prepared no longer fits. */
    private SectionScore.Composed takePrepared(Section section, double at) {
        Prepared p = prepared;
        prepared = null;
        if (p == null || p.section() != section || Math.abs(p.at() - at) > 1e-9) {
            return null;
        }
        return p.score().join();
    }

    private void queue(SectionScore.Composed composed, double from) {
        // A voice cue (command -1) sets a channel's program, volume and pan when the section starts.
        for (SectionScore.Voice v : composed.voices()) {
            cues.add(new Cue(from, Cue.CONTROL, -1, v.channel(), v.program(), v.drums() ? 1 : 0, (long) v.volume() << 8 | v.pan()));
        }
        cues.addAll(composed.cues());
        vocals.replace(from, Double.POSITIVE_INFINITY, composed.phrases());
    }

    /** Hands the singer the lines of the section composed ahead as soon as it is, a section before they play. */
    private void singAhead() {
        Prepared p = prepared;
        if (p != null && p.score().isDone() && !p.score().isCompletedExceptionally()) {
            SectionScore.Composed composed = p.score().join();
            vocals.lookAhead(p.at(), composed.beats(), composed.phrases());
        }
    }

    private void advanceSection() {
        if (current == null) {
            return;
        }
        long bar = current.bar() + current.section().bars();
        double at = current.end();
        Section before = current.section();
        beginSection(at, bar);
        if (current.section().tempo() != before.tempo()) {
            tempoNow = targetTempo();
            glideDone = 1;
        }
    }

    private void recompose(double from) {
        cues.removeIf(c -> c.beat() >= from - 1e-9 && c.order() != Cue.OFF);
        SectionScore.Composed composed = SectionScore.compose(composer, genre.id(), seed + current.bar(), current.section(),
                upcoming, current.startBeat(), noteIds);
        noteIds += NOTE_RANGE;
        for (Cue c : composed.cues()) {
            if (c.beat() >= from - 1e-9) {
                cues.add(c);
            }
        }
        for (SectionScore.Voice v : composed.voices()) {
            cues.add(new Cue(from, Cue.CONTROL, -1, v.channel(), v.program(), v.drums() ? 1 : 0, (long) v.volume() << 8 | v.pan()));
        }
        vocals.replace(from, current.end(), composed.phrases());
    }

    private double targetTempo() {
        double base = current != null ? current.section().tempo() : baseTempo;
        return base * relativeTempo();
    }

    /** The intensity's share of the tempo: 0.8 to 1.2 of the section's. */
    private double relativeTempo() {
        return 0.8 + 0.4 * intensity;
    }

    private void advanceGlide(double beats) {
        if (glideDone >= 1) {
            return;
        }
        glideDone = Math.min(1, glideDone + beats);
        tempoNow = glideFrom + (glideTo - glideFrom) * glideDone;
    }

    private long barNow() {
        if (current == null) {
            return barsBefore;
        }
        return current.bar() + (long) Math.floor((beat - current.startBeat()) / current.beatsPerBar() + 1e-9);
    }

    /** Where bar line {@code at} will be emitted, at the tempo now. */
    private AppliesAt appliesAt(double at) {
        long atFrame = frame + Math.round((at - beat) / (tempoNow / 60.0) * RATE);
        return new AppliesAt(barAt(at), at, atFrame, atFrame / (double) RATE);
    }

    /** The bar number at beat {@code at}, a bar line of the current section (or the start of a new one). */
    private long barAt(double at) {
        if (current == null) {
            return barsBefore;
        }
        return current.bar() + Math.round((at - current.startBeat()) / current.beatsPerBar());
    }

    /** The first bar line whose cues have not been handed to the synthesizer yet. */
    private double nextBarLine() {
        double horizon = beat + (context.blockFrames() + SYNTH_LATENCY + CONTROL_BLOCK) * tempoNow / 60.0 / RATE;
        if (current == null) {
            return horizon;
        }
        int perBar = current.beatsPerBar();
        double bars = Math.floor((horizon - current.startBeat()) / perBar + 1e-9) + 1;
        return current.startBeat() + bars * perBar;
    }

    private void schedule(double at, java.util.function.DoubleConsumer run) {
        actions.add(new Action(at, run));
    }

    // ------------------------------------------------------------------ synthesis

    private void dispatch(double horizon, double beatsPerFrame) {
        while (true) {
            Cue cue = cues.peek();
            Action action = actions.peek();
            if (action != null && action.beat() < horizon && (cue == null || action.beat() <= cue.beat())) {
                actions.poll();
                action.run().accept(action.beat());
                continue;
            }
            if (cue == null || cue.beat() >= horizon) {
                return;
            }
            cues.poll();
            long at = synthFrame + Math.max(0, Math.round((cue.beat() - beat) / beatsPerFrame));
            play(cue, at);
        }
    }

    private void play(Cue c, long at) {
        int key = c.channel() * 128 + (c.data1() & 127);
        switch (c.order()) {
            case Cue.CONTROL -> {
                if (c.command() == -1) {
                    int[] setup = {c.data1(), c.data2(), (int) (c.note() >> 8), (int) (c.note() & 0xff)};
                    if (!Arrays.equals(setup, channelSetup[c.channel()])) {
                        channelSetup[c.channel()] = setup;
                        applyVoice(c.channel(), setup);
                    }
                } else {
                    int[] setup = channelSetup[c.channel()];
                    int[] changed = {c.data1(), c.data2(), setup == null ? 100 : setup[2], setup == null ? 64 : setup[3]};
                    channelSetup[c.channel()] = changed;
                    send(ShortMessage.PROGRAM_CHANGE, c.channel(), program(c.data1(), c.data2() == 1), 0, at);
                }
            }
            case Cue.OFF -> {
                if (sounding[key] == c.note()) {
                    sounding[key] = 0;
                    send(ShortMessage.NOTE_OFF, c.channel(), c.data1(), 0, at);
                }
            }
            default -> {
                if (sounding[key] != 0) {
                    send(ShortMessage.NOTE_OFF, c.channel(), c.data1(), 0, at);
                }
                sounding[key] = c.note();
                soundingVelocity[key] = c.data2();
                send(ShortMessage.NOTE_ON, c.channel(), c.data1(), c.data2(), at);
            }
        }
    }

    private void applyVoice(int channel, int[] setup) {
        boolean drums = setup[1] == 1;
        sendNow(ShortMessage.CONTROL_CHANGE, channel, 0, 0);
        sendNow(ShortMessage.CONTROL_CHANGE, channel, 32, 0);
        sendNow(ShortMessage.PROGRAM_CHANGE, channel, program(setup[0], drums), 0);
        sendNow(ShortMessage.CONTROL_CHANGE, channel, 7, setup[2]);
        sendNow(ShortMessage.CONTROL_CHANGE, channel, 10, setup[3]);
    }

    /** The program the bank answers to, its instrument loaded into this synthesizer once. */
    private int program(int program, boolean drums) {
        SoundBank.Live resolved = context.bank().live(program, drums);
        if (loaded.add(resolved.key())) {
            context.bank().loadInto((SoftSynthesizer) synth, resolved);
        }
        return resolved.program();
    }

    private void sendNow(int command, int channel, int d1, int d2) {
        send(command, channel, d1, d2, -1);
    }

    private void send(int command, int channel, int d1, int d2, long atFrame) {
        try {
            receiver.send(new ShortMessage(command, channel, d1, d2), atFrame < 0 ? -1 : Math.round(atFrame * 1_000_000.0 / RATE));
        } catch (InvalidMidiDataException e) {
            throw new IllegalStateException("bad MIDI message " + command + " " + channel + " " + d1 + " " + d2, e);
        }
    }

    private void openSynth() {
        if (synth != null) {
            return;
        }
        try {
            synth = new SoftSynthesizer();
            AudioFormat format = new AudioFormat(AudioFormat.Encoding.PCM_FLOAT, RATE, 32, 2, 8, RATE, false);
            stream = synth.openStream(format, Map.of(
                    "load default soundbank", false,
                    // Gervill's automatic gain control costs a sixth of the synthesizer and pumps; the
                    // master gain and the clip after it keep the level (as the offline Renderer does).
                    "auto gain control", false,
                    // General MIDI sends nothing to chorus unless a part asks (CC 93 defaults to 0), yet
                    // Gervill runs the chorus all the same: a fifth of the synthesizer's time for little sound.
                    "chorus", false,
                    "control rate", CONTROL_RATE,
                    "max polyphony", context.polyphony(),
                    "interpolation", context.interpolation()));
            receiver = synth.getReceiver();
            context.sounding().incrementAndGet();
            readFully(SYNTH_LATENCY * 8);
        } catch (MidiUnavailableException | IOException e) {
            throw new IllegalStateException("cannot open the live synthesizer", e);
        }
    }

    private void closeSynth() {
        if (synth == null) {
            return;
        }
        synth.close();
        context.sounding().decrementAndGet();
        synth = null;
        stream = null;
        receiver = null;
        loaded.clear();
        synthFrame = 0;
        Arrays.fill(channelSetup, null);
        Arrays.fill(sounding, 0);
    }

    private void readSynth(int n) {
        try {
            readFully(n * 8);
        } catch (IOException e) {
            throw new IllegalStateException("the live synthesizer failed", e);
        }
        synthFrame += n;
        floats.clear();
        floats.get(block, 0, 2 * n);
    }

    private void applyGain(int n) {
        float master = context.masterGain() * experienceGain;
        for (int i = 0; i < n; i++) {
            if (fadeStep > 0) {
                gain = Math.max(0, gain - fadeStep);
                if (gain == 0) {
                    fadeStep = 0;
                    for (int ch = 0; ch < 16; ch++) {
                        sendNow(ShortMessage.CONTROL_CHANGE, ch, 123, 0);
                    }
                    Arrays.fill(sounding, 0);
                    vocals.silence();
                }
            }
            float g = gain * master;
            block[2 * i] = soften(block[2 * i] * g);
            block[2 * i + 1] = soften(block[2 * i + 1] * g);
        }
    }

    private static final float KNEE = 0.8f;

    /** Unchanged below the knee; above it bent smoothly towards full scale, so a loud moment rounds off instead of clipping. */
    static float soften(float x) {
        float a = Math.abs(x);
        if (a <= KNEE) {
            return x;
        }
        float over = (a - KNEE) / (1 - KNEE);
        return Math.copySign(KNEE + (1 - KNEE) * (float) Math.tanh(over), x);
    }

    private void readFully(int len) throws IOException {
        int off = 0;
        while (off < len) {
            int r = stream.read(bytes, off, len - off);
            if (r < 0) {
                throw new IOException("the synthesizer stream ended");
            }
            off += r;
        }
    }

    // ------------------------------------------------------------------ publishing

    private void publish() {
        Segment s = current;
        String meter = s != null ? s.section().meter() : "4/4";
        transport = new Transport(playing ? round3(tempoNow) : 0, round3(beat), barNow(), frame, frame / (double) RATE, RATE, playing, meter);
    }

    private void publishNow() {
        now = new NowPlaying(experience, genre == null ? null : genre.id(), playing, intensity, vocalsWanted,
                playing ? round3(targetTempo()) : 0, current == null ? null : current.section(), upcoming, clientPlan);
    }

    private static double round3(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    /** Ends the performance: the loop frees the synthesizer and encoders at its next turn. */
    @Override
    public void close() {
        closed = true;
    }

    private boolean disposed;

    private void dispose() {
        if (disposed) {
            return;
        }
        disposed = true;
        List<Outlet> all;
        synchronized (outlets) {
            all = new ArrayList<>(outlets.values());
            outlets.clear();
        }
        all.forEach(Outlet::close);
        closeSynth();
    }
}
