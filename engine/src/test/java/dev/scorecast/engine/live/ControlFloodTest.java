package dev.scorecast.engine.live;

import static dev.scorecast.engine.live.LiveHarness.nanos;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.style.GenreCatalog;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Issue 28, live control floods: one client sends {@code set_intensity} as fast as it can (32 calls
 * in flight) while other streams play and are steered now and then. Each call once queued a
 * composition on the engine's one composing thread behind an unbounded queue, so the other streams'
 * changes waited behind the flood and their sections played without notes.
 *
 * <p>On virtual time: every performance is pumped one block per turn by the test, and the composing
 * thread is modelled by an executor the test runs by hand, {@value #COMPOSITIONS_PER_BLOCK}
 * compositions a block (a composition takes about 7 ms, a block lasts 21.3 ms). Each performance has
 * a context of its own (one bank, one composing executor) so that its late sections are counted
 * apart.
 */
class ControlFloodTest {
    private static final int BLOCK = LiveHarness.BLOCK;
    private static final int COMPOSITIONS_PER_BLOCK = 2;
    private static final int OTHERS = 6;
    private static final int FLOOD_PER_BLOCK = 32;
    private static final double SECONDS = 8;

    /** The composing thread: runs what it holds in order, as many tasks a block as the test allows; remembers its longest queue. */
    private static final class ComposingThread implements Executor {
        private final ArrayDeque<Runnable> held = new ArrayDeque<>();
        private int longest;
        private long ran;

        @Override
        public synchronized void execute(Runnable task) {
            held.add(task);
            longest = Math.max(longest, held.size());
        }

        long nanos;

        void run(int most) {
            long t0 = System.nanoTime();
            try {
                runTasks(most);
            } finally {
                nanos += System.nanoTime() - t0;
            }
        }

        private void runTasks(int most) {
            for (int i = 0; i < most; i++) {
                Runnable r;
                synchronized (this) {
                    r = held.poll();
                }
                if (r == null) {
                    return;
                }
                r.run();
                ran++;
            }
        }

        synchronized int longest() {
            return longest;
        }
    }

    @Test
    void aFloodOfIntensityChangesOnOneStreamLeavesTheOthersWhole() throws Exception {
        GenreCatalog genres = GenreCatalog.builtIn();
        ExperienceCatalog catalog = ExperienceCatalog.builtIn(genres);
        var composing = new ComposingThread();
        var singer = LiveHarness.idleSinger();
        List<Performance> all = new ArrayList<>();
        List<AtomicLong> late = new ArrayList<>();
        for (int i = 0; i <= OTHERS; i++) {
            var lateSections = new AtomicLong();
            var context = LiveHarness.context()
                    .withComposing(composing)
                    .withSinger(singer)
                    .withLateSections(lateSections)
                    .build();
            Performance p = new Performance(context, 0);
            Experience e = catalog.all().get(i % catalog.all().size());
            p.send(new Control.Start(e, 0.5, false, new CompletableFuture<>()));
            all.add(p);
            late.add(lateSections);
        }
        Performance flooded = all.get(0);
        long blocks = Math.round(SECONDS * Performance.RATE / BLOCK);
        double lastSent = 0.5;
        long started = System.nanoTime();
        for (long k = 1; k <= blocks; k++) {
            if (k > 2) {
                for (int c = 0; c < FLOOD_PER_BLOCK; c++) {
                    lastSent = ((k * FLOOD_PER_BLOCK + c) % 97) / 96.0;
                    flooded.send(new Control.SetIntensity(lastSent));
                }
            }
            // The other streams' owners steer now and then: once every 3 s each, at staggered moments.
            for (int i = 1; i <= OTHERS; i++) {
                if (k % 141 == i * 17L) {
                    all.get(i).send(new Control.SetIntensity(0.2 + 0.6 * ((k / 141 + i) % 2)));
                }
            }
            // The first sections are composed before the music starts (a start from silence waits for them).
            composing.run(k <= 2 ? Integer.MAX_VALUE : COMPOSITIONS_PER_BLOCK);
            for (Performance p : all) {
                assertEquals(
                        1,
                        p.pump(nanos(k * BLOCK)),
                        "every performance renders its block on time (no underrun), block " + k);
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        composing.run(Integer.MAX_VALUE);
        all.forEach(p -> {
            p.pump(nanos((blocks + 1) * BLOCK));
        });
        long othersLate = 0;
        for (int i = 1; i <= OTHERS; i++) {
            othersLate += late.get(i).get();
            assertTrue(all.get(i).transport().playing(), "stream " + i + " plays");
        }
        System.out.printf(
                "control flood: %d blocks (%.0f s) of %d streams, %d calls on one: the others' late sections %d, the flooded"
                        + " stream's %d, longest composing queue %d, compositions run %d (%.1f s), %.1f s in all%n",
                blocks,
                SECONDS,
                OTHERS + 1,
                (blocks - 2) * FLOOD_PER_BLOCK,
                othersLate,
                late.get(0).get(),
                composing.longest(),
                composing.ran,
                composing.nanos / 1e9,
                seconds);
        assertEquals(0, othersLate, "no other stream plays a section (or the rest of one) without its notes");
        assertTrue(
                composing.longest() <= all.size(),
                "the composing queue holds at most a turn per performance: " + composing.longest());
        assertEquals(lastSent, flooded.now().intensity(), 1e-9, "the latest intensity wins");
        for (Performance p : all) {
            p.close();
            p.pump(0);
        }
    }
}
