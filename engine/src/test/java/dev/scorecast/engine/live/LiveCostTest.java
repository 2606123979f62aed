package dev.scorecast.engine.live;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.media.LiveEncoder;
import dev.scorecast.engine.render.SoundBank;
import dev.scorecast.engine.style.GenreCatalog;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What one live stream costs to render and encode, in CPU time on the render thread per second of
 * audio (the figures of docs/PLAYER.md come from this, with -Dlive.cost.sf2 set to FluidR3 and
 * -Dlive.cost.seconds=30). A stream must cost well under a tenth of a core, or two cores could
 * not carry even twenty private streams.
 */
class LiveCostTest {
    static final Path SF2 = Path.of(System.getProperty("live.cost.sf2", "/usr/share/sounds/sf2/TimGM6mb.sf2"));
    static final int SECONDS = Integer.getInteger("live.cost.seconds", 8);
    static final int EXPERIENCES = Integer.getInteger("live.cost.experiences", 3);

    @Test
    void aStreamCostsAFewPerCentOfACore() throws Exception {
        SoundBank bank = SoundBank.load(SF2);
        GenreCatalog genres = GenreCatalog.builtIn();
        ExperienceCatalog experiences = ExperienceCatalog.builtIn(genres);
        LiveSettings settings = new LiveSettings(1024, 0, 1, 48, "linear", 1f, 100);
        LiveContext context = new LiveContext(bank, genres, experiences, settings, new AtomicInteger(), Runnable::run,
                new PhraseSinger(dev.scorecast.engine.voice.EspeakSinger::create, () -> 0, PhraseSinger.DEFAULT_CACHE_SAMPLES));
        for (String format : new String[] {"none", "aac", "mp3", "opus"}) {
            double cost = 0;
            for (Experience e : experiences.all().subList(0, EXPERIENCES)) {
                cost += cost(context, e, format) / EXPERIENCES;
            }
            System.out.printf("live cost (%s, %d s x %d experiences): synthesizer%s %.2f %% of a core%n", SF2.getFileName(), SECONDS,
                    EXPERIENCES, format.equals("none") ? "" : " + " + format, 100 * cost);
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
