package dev.scorecast.engine.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.music.Score;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Render and master speed for a minute of a five-part arrangement (the figures go in docs/RENDER.md). */
@Tag("slow")
class RenderSpeedTest {

    @Test
    void aMinuteOfFivePartsRendersAtLeastTwentyTimesRealTime(@TempDir Path dir) {
        Path sf2 = Path.of(System.getProperty("scorecast.test.sf2", Fixtures.TIM.toString()));
        try (SoundBank bank = SoundBank.load(sf2)) {
            Renderer renderer = new Renderer(bank);
            renderer.render(Fixtures.score(10, 5), dir.resolve("warm"), f -> { }); // JIT and samples
            Score score = Fixtures.score(60, 5);
            double best = Double.MAX_VALUE;
            List<Stem> stems = null;
            for (int run = 0; run < 2; run++) {
                long t0 = System.nanoTime();
                stems = renderer.render(score, dir.resolve("stems"), f -> { });
                best = Math.min(best, (System.nanoTime() - t0) / 1e9);
            }
            long t1 = System.nanoTime();
            MasterReport report = Mixer.master(stems, MixSettings.standard(), dir.resolve("master.wav"));
            double mixSeconds = (System.nanoTime() - t1) / 1e9;
            System.out.printf(sf2.getFileName() + ": 60 s, 5 parts: render %.2f s = %.1fx real time on %d cores; master %.2f s = %.1fx; %.2f LUFS %.2f dBTP%n",
                    best, 60 / best, Runtime.getRuntime().availableProcessors(), mixSeconds, 60 / mixSeconds,
                    report.integratedLufs(), report.truePeakDbtp());
            assertEquals(5, stems.size());
            assertTrue(60 / best >= 20, "render speed " + 60 / best + "x real time");
        }
    }
}
