package dev.scorecast.engine.live;

import static dev.scorecast.engine.live.LiveHarness.nanos;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.media.LiveEncoder;
import dev.scorecast.engine.plan.Section;
import dev.scorecast.engine.style.GenreCatalog;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A render loop never composes and never waits for a composition (issue 15): compositions go to
 * the composing executor, here one the test runs by hand, so the test decides when each is done.
 */
class ComposeAheadTest {
    /** Holds every composition until {@link #runAll()}. */
    private static final class HeldExecutor implements Executor {
        final ArrayDeque<Runnable> held = new ArrayDeque<>();

        @Override
        public synchronized void execute(Runnable task) {
            held.add(task);
        }

        int runAll() {
            int n = 0;
            Runnable r;
            while ((r = take()) != null) {
                r.run();
                n++;
            }
            return n;
        }

        private synchronized Runnable take() {
            return held.poll();
        }
    }

    @Test
    void aStartFromSilenceWaitsForItsFirstSectionWithoutHoldingTheLoop() {
        HeldExecutor composing = new HeldExecutor();
        Performance p =
                new Performance(LiveHarness.context().withComposing(composing).build(), 0);
        Experience e = ExperienceCatalog.builtIn(GenreCatalog.builtIn()).first();
        var applied = new CompletableFuture<AppliesAt>();
        p.send(new Control.Start(e, 0.5, false, applied));
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            for (int k = 1; k <= 10; k++) {
                assertEquals(1, p.pump(nanos(k * 1024L)));
            }
        });
        assertFalse(p.transport().playing(), "nothing plays before the first section is composed");
        assertFalse(applied.isDone());
        assertEquals(0, p.transport().beat());
        assertTrue(composing.runAll() >= 1, "the start's first section went to the composing thread");
        p.pump(nanos(11 * 1024L));
        assertTrue(p.transport().playing());
        AppliesAt at = applied.getNow(null);
        assertEquals(0, at.beat(), "the music begins on the beat where it stood");
        assertEquals(10 * 1024L, at.frame(), "at the block after the score arrived");
        assertTrue(p.firstPlayed().isDone());
        p.close();
        p.pump(0);
    }

    @Test
    void aSectionWhoseScoreIsLateBeginsOnTimeAndItsNotesJoinWhenItArrives() {
        HeldExecutor composing = new HeldExecutor();
        AtomicLong late = new AtomicLong();
        Performance p = startedTechno(composing, late, 0.8);
        Section first = p.now().section();
        // From here on nothing is composed: the next section is due while its score is held.
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            while (p.now().section() == first) {
                assertEquals(1, next(p), "the loop renders its block without waiting");
                if (p.frame() > 48000L * 120) {
                    throw new AssertionError("the section never ended");
                }
            }
        });
        assertTrue(p.transport().playing());
        assertEquals(0, late.get());
        // Two seconds on with the score still held, then it arrives.
        for (int i = 0; i < 94; i++) {
            next(p);
        }
        composing.runAll();
        heard.reset();
        for (int i = 0; i < 200; i++) {
            next(p);
        }
        assertEquals(1, late.get(), "the section that began without its score is counted");
        byte[] tail = heard.toByteArray();
        assertTrue(peak(tail) > 0.05, "its notes joined when the score arrived: peak " + peak(tail));
        p.close();
        p.pump(0);
    }

    @Test
    void aRelevellingWhoseScoreIsLateLeavesTheArrangementPlayingAndAppliesAtALaterBarLine() {
        HeldExecutor composing = new HeldExecutor();
        AtomicLong late = new AtomicLong();
        Performance p = startedTechno(composing, late, 0.5);
        composing.runAll(); // the one after it, composed ahead
        Section first = p.now().section();
        int perBar = first.beatsPerBar();
        assertTrue(first.bars() >= 6, "a section long enough to re-level within: " + first.bars() + " bars");
        p.send(new Control.SetIntensity(1.0));
        next(p);
        // Two bar lines pass while the re-levelling's score is held: before, the rest of the section was dropped at the
        // first one and played without notes until the score came (a late section).
        double from = p.transport().beat();
        heard.reset();
        while (p.transport().beat() < from + 2 * perBar) {
            assertEquals(1, next(p), "the loop renders its block without waiting");
        }
        assertEquals(0, late.get(), "no section played without its notes");
        assertTrue(p.now().section() == first, "the arrangement playing goes on");
        assertTrue(peak(heard.toByteArray()) > 0.05, "with its notes: peak " + peak(heard.toByteArray()));
        composing.runAll();
        while (p.now().section() == first && p.transport().beat() < from + 4 * perBar) {
            next(p);
        }
        assertTrue(p.now().section() != first, "once composed, the re-levelling applies at a bar line");
        assertTrue(
                p.transport().bar() < first.bars(),
                "within the section it re-levels, at bar " + p.transport().bar());
        assertEquals(0, late.get());
        p.close();
        p.pump(0);
    }

    @Test
    void aSectionRelevelledJustBeforeItBeginsStartsWithItsEarlierScoreWhenTheNewOneIsLate() {
        HeldExecutor composing = new HeldExecutor();
        AtomicLong late = new AtomicLong();
        Performance p = startedTechno(composing, late, 0.5);
        composing.runAll(); // the one after it, composed ahead
        Section first = p.now().section();
        int perBar = first.beatsPerBar();
        double end = first.bars() * (double) perBar;
        while (p.transport().beat() < end - perBar / 2.0) {
            next(p);
        }
        // In its last bar: the next section is re-levelled and composed again, and that score is held past its start.
        p.send(new Control.SetIntensity(1.0));
        next(p);
        while (p.transport().beat() < end + 0.5) {
            assertEquals(1, next(p));
        }
        heard.reset();
        while (p.transport().beat() < end + perBar / 2.0) {
            next(p);
        }
        assertTrue(p.now().section() != first, "the next section began on time");
        assertTrue(
                peak(heard.toByteArray()) > 0.05,
                "with the notes of its earlier score: peak " + peak(heard.toByteArray()));
        composing.runAll();
        while (p.transport().beat() < end + 3 * perBar) {
            next(p);
        }
        assertEquals(
                0, late.get(), "no section began without its notes (before, this one did until its new score came)");
        p.close();
        p.pump(0);
    }

    /** Listens to the performance of the second test, block by block (a listener that falls behind is dropped). */
    private static Listener ear;

    private static ByteArrayOutputStream heard = new ByteArrayOutputStream();

    /** Renders the next block (and takes what the ear got). */
    private static int next(Performance p) {
        int n = p.pump(nanos(p.frame() + 1024));
        if (ear != null) {
            heard.writeBytes(drain(ear));
        }
        return n;
    }

    private static byte[] drain(Listener l) {
        var out = new ByteArrayOutputStream();
        try {
            byte[] chunk;
            while ((chunk = l.next(0)) != null && chunk.length > 0) {
                out.writeBytes(chunk);
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        return out.toByteArray();
    }

    /** Peak of 16-bit little-endian PCM, 0 to 1. */
    private static double peak(byte[] pcm) {
        int max = 0;
        for (int i = 0; i + 1 < pcm.length; i += 2) {
            max = Math.max(max, Math.abs((short) ((pcm[i] & 0xff) | (pcm[i + 1] << 8))));
        }
        return max / 32768.0;
    }
    /** A performance of the techno experience at {@code intensity}, heard, its first section composed and a block played. */
    private Performance startedTechno(HeldExecutor composing, AtomicLong late, double intensity) {
        Performance p = new Performance(
                LiveHarness.context()
                        .withComposing(composing)
                        .withLateSections(late)
                        .build(),
                0);
        ear = new Listener(LiveEncoder.Format.WAV);
        p.attach(ear);
        Experience e = ExperienceCatalog.builtIn(GenreCatalog.builtIn()).all().stream()
                .filter(x -> x.genre().equals("techno"))
                .findFirst()
                .orElseThrow();
        p.send(new Control.Start(e, intensity, false, new CompletableFuture<>()));
        next(p);
        composing.runAll(); // the first section
        next(p);
        return p;
    }
}
