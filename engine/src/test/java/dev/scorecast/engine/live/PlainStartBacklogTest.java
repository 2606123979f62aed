package dev.scorecast.engine.live;

import static dev.scorecast.engine.live.LiveHarness.nanos;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.media.LiveEncoder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a plain player needs to start at once (docs/PLAYER.md, "Plain players"), on virtual time: a listener joining music
 * that plays gets, in its first chunk, at least {@link Outlet#startBytes} and {@link Outlet#START_FRAMES} of the last
 * audio, whether its format's outlet ran before or opens for it (primed from the recent blocks); a listener joining
 * silence gets only the short backlog; and the audio it gets ends where the performance stands, without a gap.
 */
class PlainStartBacklogTest {
    private static final int BLOCK = LiveHarness.BLOCK;

    private static List<byte[]> drain(Listener l) throws InterruptedException {
        List<byte[]> chunks = new ArrayList<>();
        for (byte[] chunk = l.next(0); chunk != null && chunk.length > 0; chunk = l.next(0)) {
            chunks.add(chunk);
        }
        return chunks;
    }

    /** Plays {@code seconds} of the first experience in real (virtual) time, block by block. */
    private static Performance played(double seconds, LiveEncoder.Format... listening) {
        Performance p = LiveHarness.playing(LiveHarness.context().build());
        for (LiveEncoder.Format f : listening) {
            p.attach(new Listener(f)); // an earlier listener: the outlet runs and keeps its backlog
        }
        long blocks = Math.round(seconds * Performance.RATE / BLOCK);
        for (long k = 1; k <= blocks; k++) {
            p.pump(nanos(k * BLOCK));
        }
        return p;
    }

    @Test
    void aListenerJoiningPlayingMusicGetsEnoughAtOnceForEveryFormat() throws Exception {
        Performance p = played(11, LiveEncoder.Format.AAC);
        for (LiveEncoder.Format format : LiveEncoder.Format.values()) {
            Listener l = new Listener(format);
            p.attach(l);
            List<byte[]> chunks = drain(l);
            long bytes = chunks.stream().mapToLong(c -> c.length).sum();
            assertTrue(chunks.size() <= 2, format + ": the header and the backlog as one chunk, not " + chunks.size());
            assertTrue(bytes >= Outlet.startBytes(format), format + ": " + bytes + " bytes at once");
            long frames = p.frame() - l.firstFrame();
            assertTrue(frames >= Outlet.START_FRAMES, format + ": " + frames + " frames at once");
            assertTrue(frames <= Outlet.MAX_BACKLOG_FRAMES + 2 * BLOCK, format + ": " + frames + " frames at once");
            if (format == LiveEncoder.Format.WAV) {
                assertEquals(
                        44 + frames * 4,
                        bytes,
                        "WAV: the header, then every frame from the first to where the performance stands");
            }
        }
        p.close();
        p.pump(0);
    }

    @Test
    void aListenerJoiningSilenceGetsOnlyTheShortBacklog() throws Exception {
        Performance p = new Performance(LiveHarness.context().build(), 0);
        for (long k = 1; k <= 400; k++) {
            p.pump(nanos(k * BLOCK));
        }
        assertTrue(!p.transport().playing());
        Listener l = new Listener(LiveEncoder.Format.WAV);
        p.attach(l);
        long bytes = drain(l).stream().mapToLong(c -> c.length).sum();
        assertEquals(44 + (long) Outlet.BACKLOG * BLOCK * 4, bytes, "eight blocks of silence, not seconds of it");
        p.close();
        p.pump(0);
    }
}
