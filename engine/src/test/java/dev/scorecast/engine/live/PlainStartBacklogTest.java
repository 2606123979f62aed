package dev.scorecast.engine.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.media.LiveEncoder;
import dev.scorecast.engine.render.SoundBank;
import dev.scorecast.engine.style.GenreCatalog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * What a plain player needs to start at once (docs/PLAYER.md, "Plain players"), on virtual time: a listener joining music
 * that plays gets, in its first chunk, at least {@link Outlet#startBytes} and {@link Outlet#START_FRAMES} of the last
 * audio, whether its format's outlet ran before or opens for it (primed from the recent blocks); a listener joining
 * silence gets only the short backlog; and the audio it gets ends where the performance stands, without a gap.
 */
class PlainStartBacklogTest {
    private static final SoundBank BANK = SoundBank.load(Path.of("/usr/share/sounds/sf2/TimGM6mb.sf2"));
    private static final int BLOCK = 1024;

    private static LiveContext context() {
        GenreCatalog genres = GenreCatalog.builtIn();
        return new LiveContext(BANK, genres, ExperienceCatalog.builtIn(genres), new LiveSettings(BLOCK, 0, 1, 32, "linear", 1f, 100, 0),
                new AtomicInteger(), Runnable::run, new PhraseSinger(dev.scorecast.engine.voice.singing.EspeakSinger::create, () -> 0, 1 << 20),
                new AtomicLong());
    }

    private static long nanos(long frames) {
        return (long) Math.ceil(frames * 1e9 / Performance.RATE);
    }

    private static List<byte[]> drain(Listener l) throws InterruptedException {
        List<byte[]> chunks = new ArrayList<>();
        for (byte[] chunk = l.next(0); chunk != null && chunk.length > 0; chunk = l.next(0)) {
            chunks.add(chunk);
        }
        return chunks;
    }

    /** Plays {@code seconds} of the first experience in real (virtual) time, block by block. */
    private static Performance played(double seconds, LiveEncoder.Format... listening) {
        LiveContext context = context();
        Performance p = new Performance(context, 0);
        p.send(new Control.Start(context.experiences().first(), 0.5, false, new CompletableFuture<>()));
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
                assertEquals(44 + frames * 4, bytes, "WAV: the header, then every frame from the first to where the performance stands");
            }
        }
        p.close();
        p.pump(0);
    }

    @Test
    void aListenerJoiningSilenceGetsOnlyTheShortBacklog() throws Exception {
        Performance p = new Performance(context(), 0);
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
