package dev.scorecast.engine.live;

import dev.scorecast.engine.media.LiveEncoder;
import dev.scorecast.engine.plan.Plan;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One real-time performance: endless music composed section by section and played block by block
 * to the {@link Outlet}s of the formats listened to. It is five parts and the singer, each with its
 * own state and its own {@code copy()} for a fork:
 * <ul>
 *   <li>{@link Pacing}: when blocks are due in real time (epoch, look-ahead, a burst's lead, catching up);</li>
 *   <li>{@link MusicalClock}: frames emitted, beats played, the tempo and its glide;</li>
 *   <li>{@link SectionFeed}: the sections and the {@link Cue}s in beats, composed ahead off the loop;</li>
 *   <li>{@link SynthChannel}: the one Gervill synthesizer the cues are played on;</li>
 *   <li>{@link OutputStage}: master gain, stop fade, soft knee and the outlets;</li>
 *   <li>{@link LiveVocals}: the sung lines, mixed in at their beat.</li>
 * </ul>
 *
 * <p>What the listener steers (experience, intensity, vocals) is one immutable {@link Intent}, replaced by the controls.
 * This class only joins the parts, on the render loop: per block it drains the control queue,
 * applies what falls due (bar-line changes, the next section), hands the block's cues to the
 * synthesizer at their exact sample, reads the block, mixes the vocals in, applies the output
 * stage and publishes an immutable {@link Transport}. Musical time is counted in beats, so tempo
 * changes (the relative tempo of intensity, a client's plan) move every later cue and sung line.
 */
public final class Performance implements AutoCloseable {
    public static final int RATE = LiveEncoder.RATE;
    private static final AtomicLong IDS = new AtomicLong();

    final String id = "perf-" + IDS.incrementAndGet();
    private final LiveContext context;
    private final Queue<Control> controls = new ConcurrentLinkedQueue<>();
    private volatile Transport transport;
    private volatile NowPlaying now = NowPlaying.IDLE;
    /** Completed at the first block that plays music (or failed when the performance ends first). */
    private final CompletableFuture<AppliesAt> firstPlayed = new CompletableFuture<>();
    /** Turns in a row that a {@link VirtualMachineError} (memory running out in the process) cut short. */
    private int vmErrorTurns;
    /** About two seconds of turns: longer, the error is this performance's own, not a passing shortage. */
    static final int MAX_VM_ERROR_TURNS = 200;

    volatile boolean closed;
    /** Held by the render loop rendering this performance now; loops skip a performance another one holds. */
    private final AtomicBoolean rendering = new AtomicBoolean();

    // ---- render-loop state: the parts, what the listener steers, and a start waiting for its first score
    private final Pacing pacing;
    private final MusicalClock clock;
    private final SectionFeed feed;
    private final SynthChannel synth;
    private final OutputStage output;
    private final LiveVocals vocals;
    private Intent intent = Intent.NONE;
    private Starting starting;
    /** The block being rendered, planar stereo. */
    private final float[][] block;

    /** A start from silence, waiting for its first section's score: the music begins (at this very beat) when it is there. */
    private record Starting(SectionFeed.Begin begin, CompletableFuture<AppliesAt> applied) {
        Starting copy() {
            return new Starting(begin.copy(), applied);
        }
    }

    /** A new performance, silent until started, its frame 0 due at {@code epochNanos}. */
    Performance(LiveContext context, long epochNanos) {
        this.context = context;
        this.block = new float[2][context.blockFrames()];
        pacing = new Pacing(context.settings(), epochNanos);
        clock = new MusicalClock(RATE);
        feed = new SectionFeed(context);
        synth = new SynthChannel(context);
        output = new OutputStage(context.masterGain(), context.blockFrames());
        vocals = new LiveVocals(id, context.phrases(), pacing, context.blockFrames());
        publish();
    }

    /** A fork of {@code from}, made on its loop at a block boundary: each part copied, the listeners left to move. */
    private Performance(Performance from) {
        this.context = from.context;
        this.block = new float[2][context.blockFrames()];
        pacing = from.pacing.copy();
        clock = from.clock.copy();
        feed = from.feed.copy();
        synth = from.synth.copy();
        output = from.output.copy();
        vocals = from.vocals.copyFor(id, pacing);
        intent = from.intent;
        starting = from.starting == null ? null : from.starting.copy();
        output.keep(Outlet.BACKLOG + pacing.leadBlocks());
        now = from.now;
        if (clock.playing()) {
            firstPlayed.complete(from.firstPlayed.getNow(null));
        }
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

    /** Completes when music first plays (at once for a fork of a playing performance); fails if the performance ends first. */
    CompletableFuture<AppliesAt> firstPlayed() {
        return firstPlayed;
    }

    /** Frames emitted so far. */
    long frame() {
        return transport.frame();
    }

    /**
     * The outlet for {@code format}, opened on first use; listeners attach there and get the backlog at once, and the
     * burst when music plays (a silent performance renders none: its lead would hold the music back when it starts).
     */
    void attach(Listener listener) {
        output.attach(listener, false, transport.playing());
        if (transport.playing()) {
            pacing.wantBurst();
        }
    }

    /**
     * A listener moved here from another performance of its session: its stream goes on from this performance's next
     * block, with no header and no backlog (audio it would hear twice, and frames its client would number wrongly), and
     * no burst (the burst comes when this performance's music starts, if it has not).
     */
    void attachMoved(Listener listener) {
        output.attach(listener, true, false);
    }

    /** Frames rendered ahead of real time beyond the look-ahead (the lead a burst left). */
    long leadFrames() {
        return pacing.leadFrames();
    }

    void detach(Listener listener) {
        output.detach(listener);
    }

    int listeners() {
        return output.listeners();
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
        long lead = pacing.leadFrames();
        long due = pacing.due(nowNanos, clock.frame());
        if (pacing.leadFrames() != lead) {
            output.keep(Outlet.BACKLOG + pacing.leadBlocks()); // joining listeners get the whole lead at once
        }
        int rendered = 0;
        while (clock.frame() + context.blockFrames() <= due && !closed) {
            renderBlock();
            rendered++;
        }
        return rendered;
    }

    /** A turn ended well: the count of failed turns starts again. */
    void turnSucceeded() {
        vmErrorTurns = 0;
    }

    /**
     * Whether this performance goes on after {@code e} cut its turn short: yes for a {@link
     * VirtualMachineError} (the process short of memory) up to {@link #MAX_VM_ERROR_TURNS} turns in a
     * row; its own failures end it.
     */
    boolean survives(Throwable e) {
        return e instanceof VirtualMachineError && ++vmErrorTurns <= MAX_VM_ERROR_TURNS;
    }

    int vmErrorTurns() {
        return vmErrorTurns;
    }

    /** Frames of real time this performance gave up after falling too far behind (see {@link Pacing#MAX_CATCH_UP_BLOCKS}). */
    long skippedFrames() {
        return pacing.skippedFrames();
    }

    /** Whether the loop has fallen behind real time (a block is due that should already have been heard). */
    boolean late(long nowNanos) {
        return pacing.late(nowNanos, clock.frame());
    }

    private void renderBlock() {
        int n = context.blockFrames();
        drainControls();
        startWhenComposed();
        boolean playing = clock.playing();
        if (playing || output.tailing()) {
            double beatsPerFrame = clock.beatsPerFrame();
            if (playing) {
                dispatch(
                        clock.beat() + (n + SynthChannel.LATENCY + SynthChannel.CONTROL_BLOCK) * beatsPerFrame,
                        beatsPerFrame);
            }
            synth.read(block, n);
            feed.singAhead(vocals);
            vocals.mixInto(block, n, clock.frame(), clock.beat(), beatsPerFrame);
            output.apply(block, n, this::faded);
            clock.advance(n, beatsPerFrame);
            if (!playing && output.tailEnds(n)) {
                synth.close(); // a stopped stream costs no synthesizer until it starts again
            }
        } else {
            Arrays.fill(block[0], 0, n, 0f);
            Arrays.fill(block[1], 0, n, 0f);
            clock.advance(n, 0);
        }
        publish();
        output.emit(block, n, clock.frame() - n);
    }

    /** The stop's fade has reached silence: nothing sounds any more. */
    private void faded() {
        synth.allNotesOff();
        vocals.silence();
    }

    /** Hands the synthesizer every cue before {@code horizon}, running the changes due on the way in beat order. */
    private void dispatch(double horizon, double beatsPerFrame) {
        feed.beforeDispatch(vocals);
        while (true) {
            SectionFeed.Due due = feed.nextDue(horizon);
            if (due != null) {
                apply(due);
                continue;
            }
            Cue cue = feed.nextCue(horizon);
            if (cue == null) {
                return;
            }
            synth.play(cue, synth.frame() + Math.max(0, Math.round((cue.beat() - clock.beat()) / beatsPerFrame)));
        }
    }

    private void apply(SectionFeed.Due due) {
        switch (due) {
            case SectionFeed.Begin b -> begin(b);
            case SectionFeed.Relevel r -> {
                feed.applyRelevel(r, intent.intensity(), vocals);
                publishNow(); // the section playing is now the re-levelled one (or still the one before, when it waits
                // a bar)
            }
            case SectionFeed.SectionEnd ignored -> {
                if (feed.advanceSection(intent.intensity(), vocals)) {
                    clock.setTempo(feed.targetTempo(intent.relativeTempo()));
                }
                publishNow();
            }
        }
    }

    /**
     * Applies the controls sent since the last block, in order, except that of several
     * {@code set_intensity} only the last is applied: the latest wins, and a flood of calls costs one
     * re-arrangement a block at most.
     */
    private void drainControls() {
        if (controls.isEmpty()) {
            return;
        }
        List<Control> sent = new ArrayList<>();
        for (Control c; (c = controls.poll()) != null; ) {
            sent.add(c);
        }
        int lastIntensity = -1;
        for (int i = 0; i < sent.size(); i++) {
            if (sent.get(i) instanceof Control.SetIntensity) {
                lastIntensity = i;
            }
        }
        for (int i = 0; i < sent.size(); i++) {
            Control c = sent.get(i);
            if (c instanceof Control.SetIntensity && i != lastIntensity) {
                continue;
            }
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
        Experience e = s.experience();
        SectionSource source =
                SectionSource.continuation(context.genres().find(e.genre()).orElseThrow(), e.seed(), e.tempo());
        change(s, source, s.intensity(), s.applied());
    }

    private void replace(Control.ReplacePlan r) {
        Plan plan = r.plan();
        SectionSource source =
                SectionSource.plan(context.genres().find(plan.genre()).orElseThrow(), plan);
        change(null, source, intent.intensity(), r.applied());
    }

    /**
     * Plays {@code source} (an experience when {@code start} is set, else a client's plan): from
     * silence, as soon as its first section is composed; while playing, from the next bar line, its
     * first section composed from now.
     */
    private void change(
            Control.Start start, SectionSource source, double intensity, CompletableFuture<AppliesAt> applied) {
        if (clock.playing()) {
            double at = feed.nextBarLine(horizonBeat());
            applied.complete(appliesAt(at));
            feed.schedule(feed.changeTo(start, source, at, intensity));
            return;
        }
        if (starting != null) {
            // The earlier start is superseded: it is answered as this one is, and its first section is not composed.
            feed.withdraw(starting.begin().composition());
            CompletableFuture<AppliesAt> earlier = starting.applied();
            applied.whenComplete((a, t) -> {
                if (a != null) {
                    earlier.complete(a);
                } else {
                    earlier.completeExceptionally(t);
                }
            });
        }
        starting = new Starting(feed.changeTo(start, source, clock.beat(), intensity), applied);
        startWhenComposed();
    }

    /** Starts the music waiting for its first score once the score is there: the loop never waits for it. */
    private void startWhenComposed() {
        if (starting == null || !starting.begin().composition().score().isDone()) {
            return;
        }
        Starting s = starting;
        starting = null;
        synth.open();
        feed.clear();
        vocals.reset(s.begin().start() == null && intent.vocals());
        if (s.begin().start() == null && intent.experience() == null) {
            intent = intent.withExperience(context.experiences().first());
        }
        clock.play();
        begin(s.begin());
        output.restart(); // at the new experience's gain at once: from silence nothing can click
        AppliesAt at = new AppliesAt(feed.barNow(clock.beat()), clock.beat(), clock.frame(), clock.seconds());
        s.applied().complete(at);
        firstPlayed.complete(at);
        if (output.listeners() > 0) {
            pacing.wantBurst(); // the music starts under listeners waiting for it: their buffers fill at once
        }
    }

    /** A change reaching its bar line (or a start from silence): the new sections play from its beat. */
    private void begin(SectionFeed.Begin b) {
        double at = b.beat();
        Control.Start s = b.start();
        if (s != null) {
            intent = Intent.of(s);
            output.experienceGainDb(s.experience().gainDb());
            vocals.switchAt(at, s.vocals());
            vocals.relativeTempo(intent.relativeTempo());
        }
        feed.begin(b, intent.intensity(), vocals);
        output.genre(feed.genre());
        clock.setTempo(feed.targetTempo(intent.relativeTempo()));
        publishNow();
    }

    private void stop() {
        if (starting != null) {
            // A start still waiting for its score never sounds: it is answered where the music stands.
            starting.applied()
                    .complete(new AppliesAt(feed.barNow(clock.beat()), clock.beat(), clock.frame(), clock.seconds()));
            feed.withdraw(starting.begin().composition());
            starting = null;
        }
        if (!clock.playing()) {
            return;
        }
        feed.stop(clock.beat());
        clock.stop();
        // Fade over one beat at the tempo now, then silence the synthesizer.
        output.fadeOut((int) Math.max(1, RATE * 60.0 / Math.max(1, clock.tempo())));
        vocals.stop();
        publishNow();
    }

    private void setIntensity(double value) {
        if (value == intent.intensity() && clock.playing()) {
            return; // nothing changes: nothing to re-arrange
        }
        intent = intent.withIntensity(value);
        vocals.relativeTempo(intent.relativeTempo()); // lines not yet started are sung again at the new tempo
        if (!clock.playing()) {
            publishNow();
            return;
        }
        clock.glideTo(feed.targetTempo(intent.relativeTempo()));
        // Density follows at the next bar line: the rest of this section re-arranged at the new level.
        SectionFeed.Relevel relevel = feed.relevel(feed.nextBarLine(horizonBeat()), value);
        if (relevel != null) {
            feed.schedule(relevel);
        }
        publishNow();
    }

    private void setVocals(boolean on, CompletableFuture<AppliesAt> applied) {
        intent = intent.withVocals(on);
        if (!clock.playing()) {
            publishNow();
            applied.complete(new AppliesAt(feed.barNow(clock.beat()), clock.beat(), clock.frame(), clock.seconds()));
            return;
        }
        double at = feed.nextBarLine(horizonBeat());
        applied.complete(appliesAt(at));
        vocals.switchAt(at, on);
        publishNow();
    }

    /** Copies this performance at a block boundary and moves {@code f}'s listeners to the copy. */
    private void fork(Control.Fork f) {
        Performance copy = new Performance(this);
        for (Listener l : f.listeners()) {
            detach(l);
            copy.output.attach(l, true, false);
        }
        f.forked().complete(copy);
    }

    /** The first beat whose cues have not been handed to the synthesizer yet, at the tempo now. */
    private double horizonBeat() {
        return clock.beatAfter(context.blockFrames() + SynthChannel.LATENCY + SynthChannel.CONTROL_BLOCK);
    }

    /** Where bar line {@code at} will be emitted, at the tempo now. */
    private AppliesAt appliesAt(double at) {
        long atFrame = clock.frameOf(at);
        return new AppliesAt(feed.barAt(at), at, atFrame, atFrame / (double) RATE);
    }

    // ------------------------------------------------------------------ publishing

    private void publish() {
        SectionFeed.Segment s = feed.current();
        String meter = s != null ? s.section().meter() : "4/4";
        boolean playing = clock.playing();
        transport = new Transport(
                playing ? round3(clock.tempo()) : 0,
                round3(clock.beat()),
                feed.barNow(clock.beat()),
                clock.frame(),
                clock.seconds(),
                RATE,
                playing,
                meter);
    }

    private void publishNow() {
        SectionFeed.Segment s = feed.current();
        boolean playing = clock.playing();
        now = new NowPlaying(
                intent.experience(),
                feed.genre(),
                playing,
                intent.intensity(),
                intent.vocals(),
                playing ? round3(feed.targetTempo(intent.relativeTempo())) : 0,
                s == null ? null : s.section(),
                feed.upcoming(),
                feed.clientPlan());
    }

    private static double round3(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    /** Ends the performance: no listener joins from now on; the loop frees the synthesizer and encoders at its next turn. */
    @Override
    public void close() {
        closed = true;
        output.seal();
        firstPlayed.completeExceptionally(new IllegalStateException("the performance ended"));
    }

    private boolean disposed;

    private void dispose() {
        if (disposed) {
            return;
        }
        disposed = true;
        output.close();
        synth.close();
    }
}
