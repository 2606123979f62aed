package dev.scorecast.engine.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.media.LiveEncoder;
import dev.scorecast.engine.render.SoundBank;
import dev.scorecast.engine.style.GenreCatalog;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The live loop without HTTP, on the real render loop and clock: sessions share until one changes
 * something. The tests that listen for seconds of real-time audio are tagged slow (`bin/test --all`);
 * LiveControlsTest checks what they hear on virtual time.
 */
class LiveEngineTest {
    static LiveEngine engine;

    @BeforeAll
    static void open() {
        SoundBank bank = SoundBank.load(Path.of("/usr/share/sounds/sf2/TimGM6mb.sf2"));
        GenreCatalog genres = GenreCatalog.builtIn();
        engine = new LiveEngine(() -> bank, genres, ExperienceCatalog.builtIn(genres), LiveSettings.DEFAULT);
        // The server reads every experience's instruments before the first listener (warmUp); reading
        // house's (the Salamander piano, the analog voices) for the first time takes seconds.
        engine.prepare("house", null);
    }

    @AfterAll
    static void close() {
        engine.close();
    }

    @Test
    void everyExperienceIsValidAndEveryGenreHasOne() {
        var experiences = engine.experiences().all();
        assertTrue(experiences.size() >= 12);
        for (var g : GenreCatalog.builtIn().all()) {
            assertTrue(experiences.stream().anyMatch(e -> e.genre().equals(g.id())), "no experience for " + g.id());
        }
    }

    @Test
    void sessionsShareAPerformanceUntilOneChangesSomething() {
        Experience e = engine.experiences().find("house-rooftop").orElseThrow();
        LiveSession a = engine.open();
        LiveSession b = engine.open();
        a.start(e);
        b.start(e);
        assertTrue(a.shared() && b.shared());
        a.setIntensity(1.0); // returns once the loop made a's own copy
        assertTrue(!a.shared() && b.shared());
        a.end();
        b.end();
    }

    @Test
    @Tag("slow")
    void theForkedCopyPlaysOnAtItsOwnTempoWhileTheSharedOneKeepsItsInRealTime() throws Exception {
        Experience e = engine.experiences().find("house-rooftop").orElseThrow();
        LiveSession a = engine.open();
        LiveSession b = engine.open();
        Listener la = a.listen(LiveEncoder.Format.WAV);
        a.start(e);
        b.start(e);
        assertTrue(a.shared() && b.shared());
        byte[] first = read(la, 2.0);
        double rms = rms(first, 44);
        System.out.printf("live: rms %.3f, peak %.3f%n", rms, peak(first, 44));
        assertTrue(rms > 0.005, "audible, rms " + rms);
        a.setIntensity(1.0);
        assertTrue(!a.shared() && b.shared());
        Thread.sleep(1500);
        assertEquals(124 * 1.2, a.transport().tempo(), 0.01);
        assertEquals(124, b.transport().tempo(), 0.01);
        byte[] after = read(la, 1.0);
        assertTrue(rms(after, 0) > 0.005, "the forked copy keeps playing");
        a.end();
        b.end();
    }

    @Test
    @Tag("slow")
    void listenersOfOneStreamHearTheSameAudioAndASlowOneIsDroppedWithoutStallingTheOther() throws Exception {
        LiveSession s = engine.open();
        Listener reader = s.listen(LiveEncoder.Format.WAV);
        Listener stalled = s.listen(LiveEncoder.Format.WAV);
        s.start(engine.experiences().find("lofi-rainy-desk").orElseThrow());
        // The stalled listener never reads: after its queue fills (about five seconds) it is dropped.
        byte[] heard = read(reader, 7.0);
        assertTrue(heard.length >= 7 * 48000 * 4, "the reader got all of it: " + heard.length / 192000.0 + " s");
        assertTrue(stalled.closed(), "the stalled listener was dropped");
        assertTrue(stalled.reason().startsWith("too slow"), stalled.reason());
        // What the stalled one had queued is the same audio the reader got, frame for frame.
        var queued = new ByteArrayOutputStream();
        byte[] chunk;
        while ((chunk = stalled.next(0)) != null && chunk.length > 0) {
            queued.writeBytes(chunk);
        }
        byte[] a = Arrays.copyOfRange(heard, 0, 44 + 96_000 * 4);
        byte[] b = Arrays.copyOfRange(queued.toByteArray(), 0, 44 + 96_000 * 4);
        assertEquals(reader.firstFrame(), stalled.firstFrame());
        assertTrue(Arrays.equals(a, b), "two listeners of one stream get the same bytes");
        assertTrue(rms(a, 44) > 0.005, "and they are music");
        s.end();
    }

    static byte[] read(Listener l, double seconds) throws InterruptedException {
        var out = new ByteArrayOutputStream();
        long want = (long) (seconds * 48000 * 4);
        long deadline = System.nanoTime() + (long) ((seconds + 3) * 1e9);
        while (out.size() < want && System.nanoTime() < deadline) {
            byte[] chunk = l.next(200);
            if (chunk == null) {
                break;
            }
            out.writeBytes(chunk);
        }
        return out.toByteArray();
    }

    static double peak(byte[] wav, int skip) {
        ByteBuffer b = ByteBuffer.wrap(wav, skip, wav.length - skip).order(ByteOrder.LITTLE_ENDIAN);
        double p = 0;
        while (b.remaining() >= 2) {
            p = Math.max(p, Math.abs(b.getShort() / 32768.0));
        }
        return p;
    }

    static double rms(byte[] wav, int skip) {
        ByteBuffer b = ByteBuffer.wrap(wav, skip, wav.length - skip).order(ByteOrder.LITTLE_ENDIAN);
        double sum = 0;
        long n = 0;
        while (b.remaining() >= 2) {
            double v = b.getShort() / 32768.0;
            sum += v * v;
            n++;
        }
        return Math.sqrt(sum / Math.max(1, n));
    }
}
