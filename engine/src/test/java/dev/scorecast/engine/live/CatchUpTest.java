package dev.scorecast.engine.live;

import static dev.scorecast.engine.live.LiveHarness.drain;
import static dev.scorecast.engine.live.LiveHarness.nanos;
import static dev.scorecast.engine.live.LiveHarness.playing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.media.LiveEncoder;
import org.junit.jupiter.api.Test;

/**
 * A performance that fell behind real time, on virtual time (issue 15's soak): a short stall is caught up whole, a long
 * one only up to {@link Pacing#MAX_CATCH_UP_BLOCKS}; the rest is given up, so its listeners are not handed more than
 * their queues hold (they were dropped as too slow) and its loop is not held from the other performances.
 */
class CatchUpTest {
    private static final int BLOCK = LiveHarness.BLOCK;

    /** Plays ten blocks in real time with a WAV listener, then answers the listener. */
    private static Listener tenBlocks(Performance p) throws InterruptedException {
        Listener ear = new Listener(LiveEncoder.Format.WAV);
        p.attach(ear);
        for (int k = 1; k <= 10; k++) {
            assertEquals(1, p.pump(nanos(k * (long) BLOCK)), "turn " + k);
        }
        drain(ear);
        return ear;
    }

    @Test
    void aShortStallIsCaughtUpWhole() throws Exception {
        Performance p = playing(LiveHarness.context().build()); // no look-ahead, no burst: a block per block of time
        Listener ear = tenBlocks(p);
        int stalled = Pacing.MAX_CATCH_UP_BLOCKS - 6; // just under 2 s
        assertEquals(stalled, p.pump(nanos((10L + stalled) * BLOCK)));
        assertEquals(0, p.skippedFrames());
        assertFalse(ear.closed());
        assertEquals(stalled * BLOCK * 4L, drain(ear), "every block of the stall, at once");
    }

    @Test
    void aLongStallIsCaughtUpOnlyInPartAndTheListenerStays() throws Exception {
        Performance p = playing(LiveHarness.context().build()); // no look-ahead, no burst: a block per block of time
        Listener ear = tenBlocks(p);
        long stall = 30L * Performance.RATE; // 30 s: 1406 blocks, where a listener's queue holds 256
        long at = nanos(10L * BLOCK + stall);
        int rendered = p.pump(at);
        assertTrue(
                rendered >= Pacing.MAX_CATCH_UP_BLOCKS - 1 && rendered <= Pacing.MAX_CATCH_UP_BLOCKS + 1,
                "caught up about " + Pacing.MAX_CATCH_UP_BLOCKS + " blocks, not " + rendered);
        assertTrue(rendered < Listener.CAPACITY);
        assertFalse(ear.closed(), "not dropped as too slow: " + ear.reason());
        assertEquals(rendered * BLOCK * 4L, drain(ear));
        assertTrue(
                Math.abs(stall - (long) Pacing.MAX_CATCH_UP_BLOCKS * BLOCK - p.skippedFrames()) <= BLOCK,
                "the rest given up: " + p.skippedFrames());
        // Then real time again from there: a block per block of time.
        int later = 0;
        for (int k = 1; k <= 20; k++) {
            int n = p.pump(at + nanos(k * (long) BLOCK));
            assertTrue(n <= 2, "turn " + k + " rendered " + n);
            later += n;
        }
        assertTrue(Math.abs(later - 20) <= 1, later + " blocks in 20 blocks' time");
        assertFalse(ear.closed());
        assertTrue(p.transport().playing());
    }
}
