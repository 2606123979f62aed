package dev.scorecast.engine.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.io.WavFiles;
import dev.scorecast.engine.music.Note;
import dev.scorecast.engine.music.Part;
import dev.scorecast.engine.music.Score;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RendererTest {

    static SoundBank bank;

    @BeforeAll
    static void open() {
        bank = SoundBank.load(Fixtures.TIM);
    }

    @AfterAll
    static void close() {
        bank.close();
    }

    @Test
    void rendersOneExactLengthNonSilentStemPerGroup(@TempDir Path dir) {
        Score score = Fixtures.score(10, 4);
        List<Double> progress = new ArrayList<>();
        List<Stem> stems = new Renderer(bank).render(score, dir, progress::add);
        assertEquals(
                List.of(InstrumentGroup.BEATS, InstrumentGroup.BASS, InstrumentGroup.HARMONY, InstrumentGroup.MELODY),
                stems.stream().map(Stem::group).toList());
        assertEquals(1.0, progress.getLast());
        for (Stem stem : stems) {
            assertEquals(dir.resolve(stem.group().wire() + ".wav"), stem.wav());
            float[][] pcm = WavFiles.readAll(stem.wav());
            assertEquals(480_000, pcm[0].length, stem.group() + " length");
            assertTrue(stem.peakDbfs() > -30 && stem.peakDbfs() < 0, stem.group() + " peak " + stem.peakDbfs());
            double rms = rms(pcm[0], 0, pcm[0].length);
            assertTrue(rms > 1e-3, stem.group() + " rms " + rms);
        }
    }

    @Test
    void aKickAtTwoSecondsLandsWithinOneMillisecond(@TempDir Path dir) {
        Stem beats =
                new Renderer(bank).render(Fixtures.score(10, 4), dir, f -> {}).getFirst();
        float[][] pcm = WavFiles.readAll(beats.wav());
        double onset = onset(pcm, 1.9, 2.2);
        System.out.printf("kick onset %.5f s (error %.3f ms)%n", onset, (onset - 2.0) * 1000);
        assertEquals(2.0, onset, 0.001);
    }

    @Test
    void notesStartAtTheirSampleWhereverTheyFallInABlock(@TempDir Path dir) {
        // Rim shots (37) at awkward times: each must start within 1 ms wherever it falls in Gervill's blocks.
        double[] times = {0.5003, 1.2347, 2.00001, 3.3333, 4.0041};
        List<Note> notes = new ArrayList<>();
        for (double t : times) {
            notes.add(new Note(t, 0.1, 37, 127));
        }
        Score score = new Score(
                5, List.of(), List.of(new Part(InstrumentGroup.BEATS, 0, true, 0, 0, notes, List.of())), List.of());
        float[][] pcm = WavFiles.readAll(
                new Renderer(bank).render(score, dir, f -> {}).getFirst().wav());
        for (double t : times) {
            assertEquals(t, onset(pcm, t - 0.2, t + 0.2), 0.001, "note at " + t);
        }
    }

    @Test
    void rendersAreRepeatableAndConcurrentRenderersShareTheBank(@TempDir Path dir) throws Exception {
        Score score = Fixtures.score(4, 5);
        List<Stem> alone = new Renderer(bank).render(score, dir.resolve("alone"), f -> {});
        var pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<List<Stem>>> runs = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Path out = dir.resolve("run" + i);
                runs.add(pool.submit(() -> new Renderer(bank).render(score, out, f -> {})));
            }
            for (var run : runs) {
                List<Stem> stems = run.get();
                for (int s = 0; s < stems.size(); s++) {
                    assertEquals(
                            -1L,
                            Files.mismatch(alone.get(s).wav(), stems.get(s).wav()),
                            stems.get(s).group() + " differs");
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aScoreWithNoPartsGivesNoStems(@TempDir Path dir) {
        assertTrue(new Renderer(bank)
                .render(new Score(3, List.of(), List.of(), List.of()), dir, f -> {})
                .isEmpty());
    }

    /** The first sample whose magnitude reaches a tenth of the peak in [from, to) seconds. */
    static double onset(float[][] pcm, double from, double to) {
        int a = (int) (from * 48_000);
        int b = (int) Math.min(pcm[0].length, to * 48_000);
        float peak = 0;
        for (int i = a; i < b; i++) {
            peak = Math.max(peak, Math.max(Math.abs(pcm[0][i]), Math.abs(pcm[1][i])));
        }
        for (int i = a; i < b; i++) {
            if (Math.max(Math.abs(pcm[0][i]), Math.abs(pcm[1][i])) >= peak * 0.1) {
                return i / 48_000.0;
            }
        }
        return Double.NaN;
    }

    static double rms(float[] x, int from, int to) {
        double s = 0;
        for (int i = from; i < to; i++) {
            s += x[i] * (double) x[i];
        }
        return Math.sqrt(s / Math.max(1, to - from));
    }
}
