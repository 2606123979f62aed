package dev.scorecast.engine.live;

import dev.scorecast.engine.render.SoundBank;
import dev.scorecast.engine.style.GenreCatalog;
import dev.scorecast.engine.voice.singing.EspeakSinger;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one way the live tests build what a performance runs in, to drive it by hand on virtual time (no engine, no
 * render loop): {@code LiveHarness.context().build()} is the built-in catalogues, the small TimGM6mb bank (read once per
 * test run), compositions made on the caller's thread, a singer that sings only when a test tells it to, and
 * {@link #BY_HAND} settings; each {@code with} changes one of them. Plus the helpers every such test wants: virtual time
 * of a frame, a performance playing, a listener drained.
 */
final class LiveHarness {
    static final Path TIM_GM = Path.of("/usr/share/sounds/sf2/TimGM6mb.sf2");
    static final int BLOCK = 1024;
    /** No look-ahead and no burst, so every block rendered is one that virtual time asked for; one thread. */
    static final LiveSettings BY_HAND = LiveSettings.DEFAULT
            .withBlockFrames(BLOCK)
            .withLookaheadFrames(0)
            .withThreads(1)
            .withMaxPerformances(100)
            .withBurstFrames(0);

    private static final Map<Path, SoundBank> BANKS = new ConcurrentHashMap<>();

    private Path bank = TIM_GM;
    private LiveSettings settings = BY_HAND;
    private Executor composing = Runnable::run;
    private PhraseSinger singer;
    private AtomicLong lateSections = new AtomicLong();

    private LiveHarness() {}

    /** A context to build: the defaults above until changed. */
    static LiveHarness context() {
        return new LiveHarness();
    }

    /** The SoundFont at {@code sf2}, read once per test run however many tests use it. */
    LiveHarness withBank(Path sf2) {
        bank = sf2;
        return this;
    }

    LiveHarness withSettings(LiveSettings s) {
        settings = s;
        return this;
    }

    /** Where sections are composed (a test's own executor, to decide when each is done). */
    LiveHarness withComposing(Executor e) {
        composing = e;
        return this;
    }

    LiveHarness withSinger(PhraseSinger s) {
        singer = s;
        return this;
    }

    /** The counter of sections whose score arrived late, to read it apart per performance. */
    LiveHarness withLateSections(AtomicLong counter) {
        lateSections = counter;
        return this;
    }

    LiveContext build() {
        GenreCatalog genres = GenreCatalog.builtIn();
        return new LiveContext(
                BANKS.computeIfAbsent(bank, SoundBank::load),
                genres,
                ExperienceCatalog.builtIn(genres),
                settings,
                new AtomicInteger(),
                composing,
                singer != null ? singer : idleSinger(),
                lateSections);
    }

    /** A singer that is never started: it sings only what a test asks of it ({@link PhraseSinger#singAll()}), on a clock at 0. */
    static PhraseSinger idleSinger() {
        return new PhraseSinger(EspeakSinger::create, () -> 0, 1 << 20);
    }

    /** The virtual time at which {@code frames} frames have passed. */
    static long nanos(long frames) {
        return (long) Math.ceil(frames * 1e9 / Performance.RATE);
    }

    /** A performance whose frame 0 is at virtual time 0, asked to play the first experience at intensity 0.5 without vocals. */
    static Performance playing(LiveContext context) {
        Performance p = new Performance(context, 0);
        p.send(new Control.Start(context.experiences().first(), 0.5, false, new CompletableFuture<>()));
        return p;
    }

    /** Bytes {@code l} has been handed since it was last drained. */
    static long drain(Listener l) throws InterruptedException {
        long bytes = 0;
        for (byte[] chunk = l.next(0); chunk != null && chunk.length > 0; chunk = l.next(0)) {
            bytes += chunk.length;
        }
        return bytes;
    }
}
