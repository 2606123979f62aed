package dev.scorecast.engine.live;

import dev.scorecast.engine.core.Ticker;
import dev.scorecast.engine.error.Busy;
import dev.scorecast.engine.instruments.BankCatalog;
import dev.scorecast.engine.media.LiveEncoder;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.render.SoundBank;
import dev.scorecast.engine.style.GenreCatalog;
import dev.scorecast.engine.voice.singing.EspeakSinger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Runs every live performance on a few platform threads (one per core), each a {@link RenderLoop}
 * that renders what is due for all its performances every half block. Sessions that play an experience as
 * it comes, with nothing of their own changed, share one performance (one synthesizer, one
 * encoder per format); a session that changes something gets its own copy at the next block.
 */
public final class LiveEngine implements AutoCloseable {

    private final Supplier<SoundBank> bank;
    private final GenreCatalog genres;
    private final ExperienceCatalog experiences;
    private final LiveSettings settings;
    /** The time performances are paced on and vocal lines are due by. */
    private final Ticker ticker;

    private volatile LiveContext context;
    private final List<RenderLoop> loops = new ArrayList<>();
    private final List<Performance> running = new CopyOnWriteArrayList<>();
    /**
     * Composes sections ahead, off the render loops (one thread: a section takes milliseconds and comes every few seconds).
     * Each performance reaches it through its own {@link ComposingLane}, which keeps at most one turn in this thread's
     * queue: the queue is as long as the performances at most, and they are served in turn.
     */
    private final ExecutorService composing = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "scorecast-live-compose");
        t.setDaemon(true);
        return t;
    });
    /** Sings the vocal lines of every performance, off the render loops; started (and warmed up) with the engine. */
    private final PhraseSinger phrases;
    /** Above this share of their time rendering, the loops give the singer no CPU (DESIGN: the stream before the voice). */
    private static final double SINGER_MAX_LOOP_LOAD = 0.7;

    private final Map<String, Shared> shared = new HashMap<>();
    private final AtomicLong lateBlocks = new AtomicLong();
    /** Sections whose score arrived after they had begun: the composing thread fell behind (their first notes were left out). */
    private final AtomicLong lateSections = new AtomicLong();

    private final AtomicInteger sounding = new AtomicInteger();

    private static final class Shared {
        final Performance performance;
        int sessions;

        Shared(Performance performance) {
            this.performance = performance;
        }
    }

    /** An engine on the system's time ({@link Ticker#SYSTEM}). */
    public LiveEngine(
            Supplier<SoundBank> bank, GenreCatalog genres, ExperienceCatalog experiences, LiveSettings settings) {
        this(bank, genres, experiences, settings, Ticker.SYSTEM);
    }

    /** An engine whose performances are paced on {@code ticker}. */
    public LiveEngine(
            Supplier<SoundBank> bank,
            GenreCatalog genres,
            ExperienceCatalog experiences,
            LiveSettings settings,
            Ticker ticker) {
        this.bank = bank;
        this.genres = genres;
        this.experiences = experiences;
        this.settings = settings;
        this.ticker = ticker;
        this.phrases = new PhraseSinger(
                EspeakSinger::create, ticker, PhraseSinger.DEFAULT_CACHE_SAMPLES, this::singerHasHeadroom);
        phrases.start();
        long turn = settings.blockFrames() * 1_000_000_000L / Performance.RATE / 2;
        for (int i = 0; i < settings.threads(); i++) {
            RenderLoop loop = new RenderLoop(
                    "scorecast-live-" + (i + 1), ticker, turn, lateBlocks, running, i, settings.threads());
            loops.add(loop);
            loop.start();
        }
    }

    public ExperienceCatalog experiences() {
        return experiences;
    }

    public LiveSettings settings() {
        return settings;
    }

    /** The time this engine's performances are paced on. */
    public Ticker ticker() {
        return ticker;
    }

    /** A new session: silence until started. */
    public LiveSession open() {
        return new LiveSession(this);
    }

    /** Blocks rendered after the moment they should have been heard, over the engine's life. */
    public long lateBlocks() {
        return lateBlocks.get();
    }

    /** Sections whose score arrived after they had begun (composing fell behind the music). */
    public long lateSections() {
        return lateSections.get();
    }

    /** Vocal lines that were due and did not sound because they were not sung in time (the loop never waits for the singer). */
    public long vocalPhrasesSkipped() {
        return phrases.counters().skipped();
    }

    /** Vocal lines that started sounding. */
    public long vocalPhrasesStarted() {
        return phrases.counters().started();
    }

    /** Performances running now (shared ones counted once). */
    public int performances() {
        return running.size();
    }

    /**
     * Reads the samples of every instrument {@code genre} may play (and of {@code plan}'s programs),
     * on the caller's thread: a render loop that had to read them from the SoundFont would hold up
     * every performance on its thread. Instant once read.
     */
    public void prepare(String genre, Plan plan) {
        SoundBank b = context().bank();
        genres.find(genre)
                .ifPresent(g -> g.arrangement()
                        .groups()
                        .forEach((group, style) ->
                                style.palette().forEach(voice -> b.prepare(voice.program(), group.equals("beats")))));
        if (plan != null) {
            plan.sections()
                    .forEach(s -> s.instruments().forEach((group, instrument) -> {
                        if (instrument != null && BankCatalog.known(instrument.program())) {
                            b.prepare(instrument.program(), group.equals("beats"));
                        }
                    }));
        }
    }

    /**
     * Plays {@code seconds} of every experience as fast as the caller's thread can, into an AAC
     * encoder nobody hears, with an intensity change halfway: the synthesizer's and the encoder's
     * code is compiled and every experience's instruments read before the first listener comes,
     * instead of the JIT compiler and the SoundFont reads competing with the first streams.
     *
     * @return the experiences played
     */
    public int warmUp(double seconds) {
        long frames = Math.round(seconds * Performance.RATE);
        // Composed on this thread: the warm-up plays far faster than real time, and the composer's
        // code is warmed up with the rest.
        LiveContext c = context();
        LiveContext warmContext = new LiveContext(
                c.bank(), c.genres(), c.experiences(), c.settings(), c.sounding(), Runnable::run, c.phrases());
        for (Experience e : experiences.all()) {
            prepare(e.genre(), null);
            Performance p = new Performance(warmContext, 0);
            Listener ear = new Listener(LiveEncoder.Format.AAC);
            p.attach(ear);
            p.send(new Control.Start(e, e.intensity(), e.vocals(), new CompletableFuture<>()));
            long nanosPerBlock = settings.blockFrames() * 1_000_000_000L / Performance.RATE;
            for (long block = 1; block * settings.blockFrames() <= frames; block++) {
                if (block == frames / settings.blockFrames() / 2) {
                    p.send(new Control.SetIntensity(Math.min(1, e.intensity() + 0.3)));
                }
                p.pump(block * nanosPerBlock - settings.lookaheadFrames() * 1_000_000_000L / Performance.RATE);
                drain(ear);
            }
            p.close();
            p.pump(0);
        }
        return experiences.all().size();
    }

    private static void drain(Listener ear) {
        try {
            while (ear.next(0) instanceof byte[] chunk && chunk.length > 0) {
                // nobody listens: the chunks only had to be encoded
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the render loops leave room for the singer: none of them busier than {@link #SINGER_MAX_LOOP_LOAD}. */
    private boolean singerHasHeadroom() {
        return loops.stream().allMatch(loop -> loop.load() <= SINGER_MAX_LOOP_LOAD);
    }

    /** Vocal lines not sung because the render loops were too busy to spare the singer. */
    public long vocalPhrasesShed() {
        return phrases.counters().shed();
    }

    /** Performances with a synthesizer now. */
    public int sounding() {
        return sounding.get();
    }

    /** Refuses a call that would start one more synthesizer when the configured number already play. */
    void admit() {
        if (sounding.get() >= settings.maxPerformances()) {
            throw new Busy(
                    "The player is at capacity: " + sounding.get()
                            + " performances are playing; try again shortly, or play an experience as it comes (unchanged"
                            + " sessions share one performance).",
                    Duration.ofSeconds(30));
        }
    }

    Performance newPerformance() {
        Performance p = new Performance(context(), ticker.nanos());
        register(p);
        return p;
    }

    /** Hands {@code p} to the render loops, which start on it at once. */
    void register(Performance p) {
        running.add(p);
        loops.forEach(RenderLoop::wake);
    }

    /**
     * A listener in {@code format} on the shared performance of {@code experience} (started on first use), held until
     * closed: for publishing the shared music outside any session (HLS).
     */
    public SharedTap tapShared(Experience experience, LiveEncoder.Format format) {
        return new SharedTap(this, experience, format);
    }

    /** The shared performance of {@code experience}, started on first use; counted until released. */
    synchronized Performance acquireShared(Experience experience) {
        Shared s = shared.get(experience.id());
        if (s == null || s.performance.closed) {
            admit();
            Performance p = newPerformance();
            p.send(new Control.Start(
                    experience, experience.intensity(), experience.vocals(), new CompletableFuture<>()));
            s = new Shared(p);
            shared.put(experience.id(), s);
        }
        s.sessions++;
        return s.performance;
    }

    synchronized void releaseShared(Experience experience, Performance performance) {
        Shared s = shared.get(experience.id());
        if (s == null || s.performance != performance) {
            performance.close();
            return;
        }
        if (--s.sessions <= 0) {
            shared.remove(experience.id());
            performance.close();
        }
    }

    private LiveContext context() {
        LiveContext c = context;
        if (c == null) {
            synchronized (this) {
                c = context;
                if (c == null) {
                    c = new LiveContext(
                            bank.get(), genres, experiences, settings, sounding, composing, phrases, lateSections);
                    context = c;
                }
            }
        }
        return c;
    }

    @Override
    public void close() {
        loops.forEach(loop -> loop.stop(2000));
        // Ends every performance still running, freeing synthesizers and encoders.
        for (Performance p : running) {
            p.close();
            p.pump(0);
        }
        running.clear();
        composing.shutdownNow();
        PhraseSinger.Counters c = phrases.counters();
        System.getLogger(LiveEngine.class.getName())
                .log(
                        System.Logger.Level.INFO,
                        String.format(
                                "live player closed: %d blocks rendered late, %d sections composed after they began; vocal lines sung %d (%.0f s of voice, %.1f CPU-s), given way to busy loops %d,"
                                        + " expired %d, skipped at their start %d",
                                lateBlocks.get(),
                                lateSections(),
                                c.sung(),
                                c.sungSeconds(),
                                c.cpuSeconds(),
                                c.shed(),
                                c.expired(),
                                c.skipped()));
        phrases.close();
    }
}
