package dev.scorecast.engine.live;

import static dev.scorecast.engine.live.LiveHarness.drain;
import static dev.scorecast.engine.live.LiveHarness.nanos;
import static dev.scorecast.engine.live.LiveHarness.playing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.media.LiveEncoder;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The fast start of a plain player (issue 17), on virtual time: a listener joining makes the performance render a burst
 * ahead of real time, a few blocks per turn, so the listener's buffer fills at once; then it renders in real time again,
 * that far ahead. Listeners joining later get as much of the last audio at once from the backlog, a new format's too.
 */
class StartBurstTest {
    private static final int BLOCK = LiveHarness.BLOCK;
    private static final int BURST = Performance.RATE; // one second
    private static final int WAV_HEADER = 44;

    /** No look-ahead, so that every frame rendered beyond real time is the burst's. */
    private static LiveContext context(int burstFrames) {
        return LiveHarness.context()
                .withSettings(LiveHarness.BY_HAND.withBurstFrames(burstFrames))
                .build();
    }

    private static long wavFrames(long bytes) {
        return (bytes - WAV_HEADER) / 4;
    }

    /** Pumps at {@code nanos} until nothing more is due, each turn within the burst's share; answers the turns. */
    private static int burst(Performance p, long nanos) {
        int turns = 0;
        int rendered;
        while ((rendered = p.pump(nanos)) > 0) {
            assertTrue(rendered <= Pacing.BURST_BLOCKS_PER_TURN, "a turn rendered " + rendered + " blocks");
            turns++;
        }
        return turns;
    }

    @Test
    void musicStartingUnderAListenerComesAsABurstThenRealTime() throws Exception {
        Performance p = playing(context(BURST));
        assertEquals(0, p.pump(0), "no look-ahead: nothing is due at time 0");
        Listener ear = new Listener(LiveEncoder.Format.WAV);
        p.attach(ear);
        assertEquals(0, p.leadFrames(), "nothing plays yet: no burst of silence");
        // The first block starts the music under the listener; the burst leaves over the next few turns, at the same
        // moment.
        int turns = burst(p, nanos(BLOCK));
        assertTrue(p.transport().playing());
        assertEquals(1 + (BURST / BLOCK + Pacing.BURST_BLOCKS_PER_TURN - 1) / Pacing.BURST_BLOCKS_PER_TURN, turns);
        assertEquals(BURST, p.leadFrames());
        long frames = wavFrames(drain(ear));
        assertEquals((BLOCK + BURST) / BLOCK * BLOCK, frames, "a block of time brought a block and a second of audio");
        // Then real time again, a second ahead: one block per block of time.
        for (int k = 2; k <= 21; k++) {
            assertEquals(1, p.pump(nanos(k * (long) BLOCK)), "turn " + k);
        }
        assertEquals(20L * BLOCK * 4, drain(ear), "20 blocks in 20 blocks' time");
        assertTrue(
                p.transport().seconds() - 21.0 * BLOCK / Performance.RATE > 0.97,
                "the stream stays about a second ahead: " + p.transport());
    }

    @Test
    void aListenerJoiningPlayingMusicGetsTheBurst() throws Exception {
        Performance p = playing(context(BURST));
        assertEquals(1, p.pump(nanos(BLOCK)), "the music starts with nobody listening, in real time");
        assertTrue(p.transport().playing());
        assertEquals(0, p.leadFrames());
        Listener ear = new Listener(LiveEncoder.Format.WAV);
        p.attach(ear);
        long atOnce = wavFrames(drain(ear));
        assertEquals(BLOCK, atOnce, "the new outlet starts with what was rendered (one block so far)");
        burst(p, nanos(BLOCK));
        assertEquals(BURST, p.leadFrames());
        assertEquals(BURST / BLOCK * BLOCK, wavFrames(drain(ear) + WAV_HEADER), "then the burst");
    }

    @Test
    void aListenerMovedHereContinuesWithoutHeaderBacklogOrBurst() throws Exception {
        Performance p = playing(context(BURST));
        p.pump(nanos(BLOCK));
        for (int k = 2; k <= 20; k++) {
            p.pump(nanos(k * (long) BLOCK));
        }
        Listener moved = new Listener(LiveEncoder.Format.WAV);
        p.attachMoved(moved);
        assertEquals(0, drain(moved), "nothing at once: its stream goes on from the next block");
        assertEquals(0, p.pump(nanos(20L * BLOCK)), "no burst for it");
        assertEquals(1, p.pump(nanos(21L * BLOCK)));
        assertEquals(BLOCK * 4L, drain(moved));
    }

    @Test
    void laterListenersGetTheLeadAtOnceFromTheBacklogInAnyFormat() throws Exception {
        Performance p = playing(context(BURST));
        Listener first = new Listener(LiveEncoder.Format.WAV);
        p.attach(first);
        burst(p, nanos(BLOCK));
        drain(first);
        for (int k = 2; k <= 100; k++) {
            p.pump(nanos(k * (long) BLOCK));
        }
        drain(first);
        long head = p.frame();
        Listener later = new Listener(LiveEncoder.Format.WAV);
        p.attach(later);
        long atOnce = wavFrames(drain(later));
        assertTrue(atOnce >= BURST, "a later WAV listener gets the lead at once: " + atOnce + " frames");
        assertEquals(head, later.firstFrame() + atOnce, "the backlog ends where the performance is");
        assertEquals(0, p.pump(nanos(100L * BLOCK)), "the lead is there already: no second burst");
        Listener aac = new Listener(LiveEncoder.Format.AAC);
        p.attach(aac);
        long adts = 0;
        for (byte[] chunk = aac.next(0); chunk != null && chunk.length > 0; chunk = aac.next(0)) {
            for (int i = 0; i + 1 < chunk.length; i++) {
                if ((chunk[i] & 0xff) == 0xff && (chunk[i + 1] & 0xf6) == 0xf0) {
                    adts++;
                }
            }
        }
        // AAC frames are 1024 samples, one per block; the encoder holds back a frame or two of its own delay.
        assertTrue(adts * 1024 >= BURST, "a new AAC outlet starts with the recent blocks: " + adts + " ADTS frames");
        p.close();
        p.pump(0);
    }

    @Test
    void aForkKeepsTheLead() throws Exception {
        Performance p = playing(context(BURST));
        Listener ear = new Listener(LiveEncoder.Format.WAV);
        p.attach(ear);
        burst(p, nanos(BLOCK));
        drain(ear);
        var forked = new CompletableFuture<Performance>();
        p.send(new Control.Fork(List.of(ear), forked));
        p.pump(nanos(2L * BLOCK));
        Performance copy = forked.getNow(null);
        assertEquals(p.leadFrames(), copy.leadFrames());
        assertEquals(
                p.frame(), copy.frame() + BLOCK, "the fork was made at the block boundary before the turn's block");
        assertEquals(1, copy.pump(nanos(2L * BLOCK)), "the copy renders where the original stood, not a second burst");
        p.close();
        p.pump(0);
        copy.close();
        copy.pump(0);
    }

    @Test
    void withoutABurstTheStreamIsRenderedInRealTime() throws Exception {
        Performance p = playing(context(0));
        Listener ear = new Listener(LiveEncoder.Format.WAV);
        p.attach(ear);
        assertEquals(0, p.pump(0));
        assertEquals(1, p.pump(nanos(BLOCK)));
        assertEquals(0, p.pump(nanos(BLOCK)));
        assertEquals(0, p.leadFrames());
        assertEquals(BLOCK, wavFrames(drain(ear)));
    }
}
