package dev.scorecast.engine.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.voice.singing.Singer;
import dev.scorecast.engine.voice.singing.SungNote;
import dev.scorecast.engine.voice.singing.Vocal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The live singer's queue and cache, with a singer that records what it is asked to sing. */
class PhraseSingerTest {
    final AtomicLong clock = new AtomicLong();
    final List<Integer> sungPitches = new ArrayList<>();
    /** One second of samples per note, so the cache's size is easy to count. */
    final Singer recorder = notes -> {
        sungPitches.add(notes.getFirst().pitch());
        return new Vocal(new float[Singer.SAMPLE_RATE_HZ * notes.size()], Singer.SAMPLE_RATE_HZ, List.of(0));
    };

    static List<SungNote> line(int pitch) {
        return List.of(SungNote.sung(0, 0.5, pitch, 100, "la"));
    }

    @Test
    void performancesAskingForTheSameLineShareOneSinging() {
        PhraseSinger singer = new PhraseSinger(() -> recorder, clock::get, 1 << 20);
        CompletableFuture<Vocal> a = singer.ask(line(60), 1000);
        CompletableFuture<Vocal> b = singer.ask(line(60), 2000);
        assertSame(a, b);
        singer.singAll();
        assertEquals(List.of(60), sungPitches);
        singer.drop(line(60));
        singer.drop(line(60));
        // Asked again later: from the cache, nothing sung.
        assertSame(a.join(), singer.ask(line(60), 3000).join());
        assertEquals(1, singer.counters().sung());
    }

    @Test
    void theLineDueSoonestIsSungFirst() {
        PhraseSinger singer = new PhraseSinger(() -> recorder, clock::get, 1 << 20);
        singer.ask(line(64), 3000);
        singer.ask(line(62), 2000);
        singer.ask(line(60), 1000);
        singer.singNext(false);
        assertEquals(List.of(60), sungPitches);
        singer.ask(line(59), 500); // a line due sooner, asked later, goes before the rest
        singer.singAll();
        assertEquals(List.of(60, 59, 62, 64), sungPitches);
    }

    @Test
    void aLineNobodyWantsOrThatCanNoLongerBeOnTimeIsNotSung() {
        PhraseSinger singer = new PhraseSinger(() -> recorder, clock::get, 1 << 20);
        CompletableFuture<Vocal> dropped = singer.ask(line(60), 5000);
        CompletableFuture<Vocal> late = singer.ask(line(62), 1000);
        CompletableFuture<Vocal> inTime = singer.ask(line(64), 5000);
        singer.drop(line(60));
        clock.set(2000);
        singer.singAll();
        assertEquals(List.of(64), sungPitches);
        assertTrue(
                dropped.isCancelled() && late.isCancelled() && inTime.isDone() && !inTime.isCompletedExceptionally());
        assertEquals(1, singer.counters().expired(), "the late one counts as expired, the dropped one does not");
        // A line that expired can be asked for again, and is sung then.
        CompletableFuture<Vocal> again = singer.ask(line(62), 9000);
        assertNotSame(late, again);
        singer.singAll();
        assertTrue(again.isDone() && !again.isCompletedExceptionally());
    }

    @Test
    void theCacheKeepsTheLinesAskedForLastWithinItsSizeButNeverOneStillHeld() {
        PhraseSinger singer = new PhraseSinger(() -> recorder, clock::get, 2L * Singer.SAMPLE_RATE_HZ);
        for (int p = 60; p < 64; p++) {
            singer.ask(line(p), 1000 + p);
        }
        singer.singAll();
        // All four held: none may go, though they are twice the size.
        assertEquals(4L * Singer.SAMPLE_RATE_HZ, singer.counters().cachedSamples());
        for (int p = 60; p < 64; p++) {
            singer.drop(line(p));
        }
        assertEquals(2L * Singer.SAMPLE_RATE_HZ, singer.counters().cachedSamples());
        assertTrue(singer.ask(line(63), 5000).isDone(), "still cached: the last two were kept");
        singer.ask(line(60), 5000);
        singer.singAll();
        assertEquals(List.of(60, 61, 62, 63, 60), sungPitches, "the first was forgotten and sung again");
    }
}
