package dev.scorecast.engine.live;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.media.LiveEncoder;
import dev.scorecast.engine.style.GenreCatalog;
import dev.scorecast.engine.voice.singing.EspeakSinger;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What one live stream costs to render and encode, in CPU time on the render thread per second of
 * audio (the figures of docs/PLAYER.md come from this, with -Dlive.cost.sf2 set to FluidR3 and
 * -Dlive.cost.seconds=30). A stream must cost well under a tenth of a core, or two cores could
 * not carry even twenty private streams. With vocals, the singer's share too: its thread's CPU
 * time and that of the espeak-ng processes it runs, per second of stream.
 *
 * <p>CPU-time bounds on a shared machine: tagged slow, run by {@code bin/test --all} (CI).
 */
@Tag("slow")
class LiveCostTest {
    static final Path SF2 = Path.of(System.getProperty("live.cost.sf2", "/usr/share/sounds/sf2/TimGM6mb.sf2"));
    static final int SECONDS = Integer.getInteger("live.cost.seconds", 8);
    static final int EXPERIENCES = Integer.getInteger("live.cost.experiences", 3);

    @Test
    void aStreamCostsAFewPerCentOfACore() throws Exception {
        LiveContext context = LiveHarness.context().withBank(SF2).build();
        ExperienceCatalog experiences = context.experiences();
        for (String format : new String[] {"none", "aac", "mp3", "opus"}) {
            double cost = 0;
            for (Experience e : experiences.all().subList(0, EXPERIENCES)) {
                cost += cost(context, e, format) / EXPERIENCES;
            }
            System.out.printf(
                    "live cost (%s, %d s x %d experiences): synthesizer%s %.2f %% of a core%n",
                    SF2.getFileName(), SECONDS, EXPERIENCES, format.equals("none") ? "" : " + " + format, 100 * cost);
            assertTrue(cost < 0.10, format + ": " + cost);
        }
    }

    private static double cost(LiveContext context, Experience e, String format) throws InterruptedException {
        var threads = ManagementFactory.getThreadMXBean();
        Performance p = new Performance(context, 0);
        Listener l = null;
        if (!format.equals("none")) {
            l = new Listener(LiveEncoder.Format.fromWire(format).orElseThrow());
            p.attach(l);
        }
        p.send(new Control.Start(e, 0.5, e.vocals(), new CompletableFuture<>()));
        p.pump(2_000_000_000L); // warm up: the first sections, instruments loaded
        drain(l);
        long before = threads.getCurrentThreadCpuTime();
        for (int s = 3; s <= 2 + SECONDS; s++) {
            p.pump(s * 1_000_000_000L);
            drain(l);
        }
        double seconds = (threads.getCurrentThreadCpuTime() - before) / 1e9;
        p.close();
        p.pump(0);
        return seconds / SECONDS;
    }

    /** What a stream of one experience cost: the render loop's CPU and the singer's (Java and espeak-ng), in seconds. */
    record VocalCost(
            double render, double singer, double espeak, double streamSeconds, double sungSeconds, long skipped) {
        VocalCost plus(VocalCost o) {
            return new VocalCost(
                    render + o.render,
                    singer + o.singer,
                    espeak + o.espeak,
                    streamSeconds + o.streamSeconds,
                    sungSeconds + o.sungSeconds,
                    skipped + o.skipped);
        }

        String share(double cpu) {
            return String.format("%.2f %%", 100 * cpu / streamSeconds);
        }
    }

    @Test
    void theSingerOfAVocalStreamCostsAFewPerCentOfACore() throws Exception {
        ExperienceCatalog experiences = ExperienceCatalog.builtIn(GenreCatalog.builtIn());
        List<Experience> sung = experiences.all().stream()
                .filter(Experience::vocals)
                .limit(EXPERIENCES)
                .toList();
        EspeakSinger espeak = EspeakSinger.create();
        AtomicLong clock = new AtomicLong();
        // Other seeds: other lyrics and melodies, made of the words the first pass taught espeak-ng's caches.
        List<Experience> later = sung.stream()
                .map(e -> new Experience(
                        e.id(),
                        e.name(),
                        e.description(),
                        e.genre(),
                        e.tempo(),
                        e.mood(),
                        e.vocals(),
                        e.intensity(),
                        e.seed() + 7,
                        e.gainDb()))
                .toList();
        PhraseSinger silent = new PhraseSinger(() -> espeak, clock::get, PhraseSinger.DEFAULT_CACHE_SAMPLES);
        PhraseSinger first =
                new PhraseSinger(() -> espeak, clock::get, 64L << 20); // room for every line of the first pass
        PhraseSinger second = new PhraseSinger(() -> espeak, clock::get, PhraseSinger.DEFAULT_CACHE_SAMPLES);
        VocalCost cold = run(sung, true, first, clock); // espeak-ng's phonemes and syllables not yet cached
        VocalCost warm = run(later, true, second, clock); // new lines, words mostly known
        VocalCost shared = run(sung, true, first, clock); // the first pass's lines again: from the phrase cache
        VocalCost off = run(sung, false, silent, clock); // last, like "shared" with the code warmed up
        System.out.printf(
                "live vocal cost (%s, %d s x %d vocal experiences), share of one core per stream:%n",
                SF2.getFileName(), SECONDS, sung.size());
        System.out.printf(
                "  render loop: vocals off %s, on %s (the vocal mix and its reverb)%n",
                off.share(off.render), shared.share(shared.render));
        for (var c : List.of(
                Map.entry("cold caches", cold),
                Map.entry("new lines, espeak-ng caches warm", warm),
                Map.entry("lines already sung", shared))) {
            VocalCost v = c.getValue();
            System.out.printf(
                    "  singer, %s: %s (thread %s + espeak-ng %s); %.1f s sung for %.1f s of stream; %d lines skipped%n",
                    c.getKey(),
                    v.share(v.singer + v.espeak),
                    v.share(v.singer),
                    v.share(v.espeak),
                    v.sungSeconds,
                    v.streamSeconds,
                    v.skipped);
        }
        assertTrue(cold.sungSeconds > 0.2 * cold.streamSeconds, "the vocal experiences sang: " + cold);
        assertTrue((cold.singer + cold.espeak) / cold.streamSeconds < 0.25, "cold singer: " + cold);
        assertTrue((warm.singer + warm.espeak) / warm.streamSeconds < 0.10, "warm singer: " + warm);
        assertTrue(
                shared.singer + shared.espeak < 0.05 * shared.streamSeconds && shared.sungSeconds == 0,
                "shared lines: " + shared);
        assertTrue((shared.render - off.render) / off.streamSeconds < 0.01, "the vocal mix: " + shared + " vs " + off);
    }

    private static VocalCost run(List<Experience> sung, boolean vocals, PhraseSinger singer, AtomicLong clock)
            throws IOException {
        LiveContext context = LiveHarness.context()
                .withBank(SF2)
                .withSettings(LiveHarness.BY_HAND.withPolyphony(48))
                .withSinger(singer)
                .build();
        VocalCost total = new VocalCost(0, 0, 0, 0, 0, 0);
        for (Experience e : sung) {
            total = total.plus(run(context, e, vocals, singer, clock));
        }
        return total;
    }

    /**
     * One experience, block by block in virtual time; after each block the singer sings what was
     * asked (on this thread, so its CPU time is measured apart from the loop's). The first two
     * seconds (instruments loaded) are left out of the loop's figure, not of the singer's.
     */
    private static VocalCost run(
            LiveContext context, Experience e, boolean vocals, PhraseSinger singer, AtomicLong clock)
            throws IOException {
        var threads = ManagementFactory.getThreadMXBean();
        var before = singer.counters();
        double espeak0 = childCpuSeconds();
        Performance p = new Performance(context, 0);
        p.send(new Control.Start(e, 0.5, vocals, new CompletableFuture<>()));
        long render = 0;
        long sing = 0;
        long blocks = (long) (2 + SECONDS) * Performance.RATE / 1024;
        for (long k = 1; k <= blocks; k++) {
            long due = (long) Math.ceil(k * 1024 * 1e9 / Performance.RATE);
            long t0 = threads.getCurrentThreadCpuTime();
            p.pump(due);
            long t1 = threads.getCurrentThreadCpuTime();
            clock.set(due);
            singer.singAll();
            long t2 = threads.getCurrentThreadCpuTime();
            if (k * 1024 > 2L * Performance.RATE) {
                render += t1 - t0;
            }
            sing += t2 - t1;
        }
        p.close();
        p.pump(0);
        var after = singer.counters();
        return new VocalCost(
                render / 1e9 * (2.0 + SECONDS) / SECONDS,
                sing / 1e9,
                childCpuSeconds() - espeak0,
                2.0 + SECONDS,
                after.sungSeconds() - before.sungSeconds(),
                after.skipped() - before.skipped());
    }

    /** CPU time of this process's finished children (the espeak-ng runs), from /proc/self/stat. */
    static double childCpuSeconds() throws IOException {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[13]) + Long.parseLong(f[14]))
                / 100.0; // cutime + cstime in clock ticks (USER_HZ, 100 on Linux)
    }

    private static void drain(Listener l) throws InterruptedException {
        if (l == null) {
            return;
        }
        byte[] chunk;
        while ((chunk = l.next(0)) != null && chunk.length > 0) {
            // a listener that keeps up
        }
    }
}
