package dev.scorecast.engine.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.core.Ticker;
import dev.scorecast.engine.style.GenreCatalog;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Issue 28: an execution that ran the process out of memory ended every live stream on its node,
 * because a render loop ended a performance on any Error it met. The process running short of memory
 * is not the stream's fault: the performance goes on and catches up; its own failures still end it.
 */
class OutOfMemoryTest {
    /** Completing it throws what a full heap throws there, once: on the render loop, in the middle of a turn. */
    private static final class FullHeapOnce extends CompletableFuture<AppliesAt> {
        private final AtomicInteger thrown = new AtomicInteger();

        @Override
        public boolean complete(AppliesAt value) {
            boolean done = super.complete(value);
            if (thrown.getAndIncrement() == 0) {
                throw new OutOfMemoryError("Java heap space (another job)");
            }
            return done;
        }
    }

    @Test
    void aStreamOutlivesTheProcessRunningShortOfMemory() throws Exception {
        List<Performance> running = new CopyOnWriteArrayList<>();
        // On a real render loop, so with the look-ahead it renders at.
        Performance p = new Performance(
                LiveHarness.context()
                        .withSettings(LiveHarness.BY_HAND.withLookaheadFrames(LiveSettings.DEFAULT.lookaheadFrames()))
                        .build(),
                System.nanoTime());
        running.add(p);
        var applied = new FullHeapOnce();
        p.send(new Control.Start(
                ExperienceCatalog.builtIn(GenreCatalog.builtIn()).first(), 0.5, false, applied));
        RenderLoop loop = new RenderLoop(
                "oom-test",
                Ticker.SYSTEM,
                1024 * 1_000_000_000L / Performance.RATE / 2,
                new AtomicLong(),
                running,
                0,
                1);
        loop.start();
        try {
            // Real time: the loop is a real thread; a second of audio, polled with a deadline.
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (p.frame() < Performance.RATE && !p.closed && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
        } finally {
            loop.stop(2000);
        }
        assertEquals(1, applied.thrown.get(), "the out-of-memory error was thrown on the loop");
        assertFalse(p.closed, "the performance was not ended");
        assertTrue(p.transport().playing());
        assertTrue(p.frame() >= Performance.RATE, "it played on: " + p.frame() + " frames");
        p.close();
        p.pump(0);
    }

    @Test
    void itsOwnFailuresStillEndIt() {
        Performance p = new Performance(LiveHarness.context().build(), 0);
        for (int i = 0; i < Performance.MAX_VM_ERROR_TURNS; i++) {
            assertTrue(p.survives(new OutOfMemoryError()));
        }
        assertFalse(p.survives(new OutOfMemoryError()), "two seconds of turns in a row: it is its own");
        p.turnSucceeded();
        assertTrue(p.survives(new OutOfMemoryError()), "a turn that ended well starts the count again");
        assertFalse(p.survives(new IllegalStateException("its own bug")));
        assertFalse(p.survives(new AssertionError("its own bug")));
        p.close();
        p.pump(0);
    }
}
