package dev.scorecast.engine.music;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.analysis.audio.OnsetDetector;
import dev.scorecast.engine.analysis.audio.OnsetRules;
import dev.scorecast.engine.analysis.audio.PulseTempo;
import dev.scorecast.engine.io.WavReader;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.Section;
import dev.scorecast.engine.render.MixSettings;
import dev.scorecast.engine.render.Mixer;
import dev.scorecast.engine.render.Renderer;
import dev.scorecast.engine.render.SoundBank;
import dev.scorecast.engine.render.Stem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The tempo a listener hears in the rendered master, estimated from its onsets alone
 * ({@link PulseTempo}, searching ±40 % around the plan's tempo), is the plan's: within 2 % in
 * every section.
 */
class RenderedTempoTest {
    static final Path TIM = Path.of("/usr/share/sounds/sf2/TimGM6mb.sf2");

    // Tagged slow (bin/test --all): a master rendered per genre and listened to, 5 to 13 s; the estimator's own test
    // stays fast.
    @ParameterizedTest
    @ValueSource(strings = {"house", "hip-hop", "rock"})
    @Tag("slow")
    void everySectionSoundsAtItsPlannedTempo(String genre, @TempDir Path dir) {
        Plan plan = Plans.plan(genre, 5, 0.6, 0.9, 0.7, 0.8);
        List<Double> onsets = onsets(render(plan, dir));
        for (Section s : plan.sections()) {
            // The first and last bar hold the boundary hits and fills; the steady groove is between.
            double bar = s.beatsPerBar() * 60 / s.tempo();
            List<Double> inside = onsets.stream()
                    .filter(t -> t > s.start() + bar && t < s.end() - bar)
                    .toList();
            double heard = PulseTempo.estimateBpm(inside, s.tempo() / 1.4, s.tempo() * 1.4);
            double error = Math.abs(heard - s.tempo()) / s.tempo();
            System.out.printf(
                    "%s section %d: planned %.2f bpm, heard %.2f bpm (%.2f %%), %d onsets%n",
                    genre, s.index(), s.tempo(), heard, 100 * error, inside.size());
            assertTrue(
                    error <= 0.02, genre + " section " + s.index() + ": planned " + s.tempo() + " bpm, heard " + heard);
        }
    }

    @Test
    void theEstimatorFindsAKnownPulseAndRejectsAnother() {
        List<Double> pulse = new ArrayList<>();
        for (double t = 0; t < 20; t += 60 / 117.0) {
            pulse.add(t);
            pulse.add(t + 30 / 117.0); // off-beats: an eighth-note grid, as hats play
        }
        double heard = PulseTempo.estimateBpm(pulse, 117 / 1.4, 117 * 1.4);
        assertTrue(Math.abs(heard - 117) < 0.3, "heard " + heard);
        double wrong = PulseTempo.estimateBpm(pulse, 125 / 1.4, 125 * 1.4);
        assertTrue(Math.abs(wrong - 125) / 125 > 0.02, "a 117 bpm pulse must not pass for 125: " + wrong);
    }

    private static Path render(Plan plan, Path dir) {
        try (SoundBank bank = SoundBank.load(TIM)) {
            Score score = new Composer().compose(plan);
            List<Stem> stems = new Renderer(bank).render(score, dir.resolve("stems"), f -> {});
            Path master = dir.resolve("master.wav");
            Mixer.master(stems, new MixSettings(Map.of(), Map.of(), -14, 0, Optional.empty(), -6), master);
            return master;
        }
    }

    static List<Double> onsets(Path wav) {
        try (WavReader in = WavReader.open(wav, "test", "the test")) {
            OnsetDetector detector = new OnsetDetector(in.rateHz());
            float[][] block = new float[in.channels()][4096];
            float[] mono = new float[4096];
            int n;
            while ((n = in.read(block, 4096)) > 0) {
                for (int i = 0; i < n; i++) {
                    mono[i] = (block[0][i] + block[block.length - 1][i]) / 2;
                }
                detector.accept(mono, 0, n);
            }
            return detector.finish(OnsetRules.DEFAULT);
        }
    }
}
