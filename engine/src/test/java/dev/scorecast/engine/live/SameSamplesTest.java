package dev.scorecast.engine.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.media.LiveEncoder;
import dev.scorecast.engine.voice.singing.EspeakSinger;
import java.io.ByteArrayOutputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The samples one live performance emits for a fixed seed, hashed: a refactoring of the live parts must leave them
 * byte for byte. On virtual time, with everything the pacing touches: a burst under a listener, sung lines asked for
 * by their deadline and sung only now and then (so that some expire), a long stall given up in part, an intensity
 * change, a fork carrying the listener on, vocals switched off and a stop. The hashes were taken before pacing moved
 * out of Performance (issue 30); a change to what the live player plays changes them, knowingly.
 */
class SameSamplesTest {
    private static final int BLOCK = LiveHarness.BLOCK;
    private static final long HALF_BLOCK_NANOS = BLOCK * 1_000_000_000L / Performance.RATE / 2;

    @Test
    void aSteeredForkedPerformancePlaysTheSameSamples() throws Exception {
        AtomicLong now = new AtomicLong();
        EspeakSinger espeak = EspeakSinger.create();
        PhraseSinger singer = new PhraseSinger(() -> espeak, now::get, PhraseSinger.DEFAULT_CACHE_SAMPLES);
        LiveContext context = LiveHarness.context().withSinger(singer)
                .withSettings(LiveHarness.BY_HAND.withLookaheadFrames(4096).withBurstFrames(Performance.RATE)).build();
        Experience pop = context.experiences().find("pop-sunny-side").orElseThrow();

        Performance original = new Performance(context, 0);
        Listener ear = new Listener(LiveEncoder.Format.WAV);
        Listener stay = new Listener(LiveEncoder.Format.WAV);
        original.attach(ear);
        original.attach(stay);
        original.send(new Control.Start(pop, 0.5, true, new CompletableFuture<>()));
        var heard = new ByteArrayOutputStream();
        var stayed = new ByteArrayOutputStream();
        var forked = new CompletableFuture<Performance>();
        Performance fork = null;
        long t = 0;
        for (int turn = 1; turn <= 2000; turn++) {
            t += turn == 800 ? 4_000_000_000L : HALF_BLOCK_NANOS; // a 4 s stall: 2 s caught up, the rest given up
            now.set(t);
            if (turn == 500) {
                original.send(new Control.SetIntensity(0.9));
            }
            if (turn == 1000) {
                original.send(new Control.Fork(List.of(ear), forked));
            }
            original.pump(t);
            if (fork == null && forked.isDone()) {
                fork = forked.join(); // made at the block boundary of the turn that rendered next
                fork.send(new Control.SetIntensity(0.2));
            }
            if (fork != null) {
                fork.pump(t);
            }
            if (turn == 1500) {
                fork.send(new Control.SetVocals(false, new CompletableFuture<>()));
            }
            if (turn == 1800) {
                fork.send(new Control.Stop());
            }
            if (turn % 560 == 0) {
                singer.singAll(); // now and then: lines whose deadline passed meanwhile expire
            }
            drain(ear, heard);
            drain(stay, stayed);
        }
        var counters = singer.counters();
        System.out.printf("same samples: %d + %d bytes, skipped %d frames; lines sung %d, started %d, expired %d, skipped %d%n",
                heard.size(), stayed.size(), original.skippedFrames(), counters.sung(), counters.started(), counters.expired(),
                counters.skipped());
        assertTrue(counters.started() > 0 && counters.expired() > 0, "lines sung and lines expired both: " + counters);
        assertEquals("f0d174ca19e112b5045d0f3f9c312fc4bec76fdb4a320baedca3b25e8f25a67b", sha256(heard.toByteArray()), "the listener carried to the fork");
        assertEquals("3cb5455a10f20e0f6704a6f5ae9d5cd47d0f4e888bb37d6b6cc10d580baaf015", sha256(stayed.toByteArray()), "the listener that stayed");
        original.close();
        original.pump(0);
        fork.close();
        fork.pump(0);
        singer.close();
    }

    private static void drain(Listener l, ByteArrayOutputStream into) throws InterruptedException {
        for (byte[] chunk = l.next(0); chunk != null && chunk.length > 0; chunk = l.next(0)) {
            into.writeBytes(chunk);
        }
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
