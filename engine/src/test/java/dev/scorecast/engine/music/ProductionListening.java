package dev.scorecast.engine.music;

import dev.scorecast.engine.io.WavFiles;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.render.MasterReport;
import dev.scorecast.engine.render.MixSettings;
import dev.scorecast.engine.render.Mixer;
import dev.scorecast.engine.render.PartChain;
import dev.scorecast.engine.render.Renderer;
import dev.scorecast.engine.render.SoundBank;
import dev.scorecast.engine.render.Stem;
import dev.scorecast.engine.style.Production;
import dev.scorecast.engine.style.ProductionCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Not a check: renders 60 s of a genre (seed 3, the default SoundFont) and masters it twice, as
 * rendered ({@code GENRE-before.wav}) and through the genre's production chain
 * ({@code GENRE-after.wav}), into the folder named by {@code -Dscorecast.listen=DIR}, for
 * listening and spectrograms (docs/SOUND.md, Production chain). Prints the render and master times.
 */
@EnabledIfSystemProperty(named = "scorecast.listen", matches = ".+")
class ProductionListening {

    @ParameterizedTest
    @ValueSource(strings = {"house", "techno", "cinematic", "rock", "lofi"})
    void renderBeforeAndAfter(String genre) throws Exception {
        Path dir = Files.createDirectories(Path.of(System.getProperty("scorecast.listen")));
        Path font = Path.of(System.getProperty("scorecast.listen.soundfont", "/usr/share/sounds/sf2/FluidR3_GM.sf2"));
        Plan plan = Plans.plan(genre, 3, 0.6, 0.9, 0.7, 0.8);
        try (SoundBank bank = SoundBank.load(font)) {
            Score score = new Composer().compose(plan);
            long t0 = System.nanoTime();
            List<Stem> stems = new Renderer(bank).render(score, dir.resolve(genre + "-stems"), f -> {});
            long t1 = System.nanoTime();
            MasterReport before = Mixer.master(stems, MixSettings.standard(), dir.resolve(genre + "-before.wav"));
            long t2 = System.nanoTime();
            MixSettings produced = MixSettings.standard()
                    .withProduction(
                            ProductionCatalog.builtIn().forGenre(genre),
                            score.tempoMap().getFirst().bpm());
            MasterReport after = Mixer.master(stems, produced, dir.resolve(genre + "-after.wav"));
            long t3 = System.nanoTime();
            // The live chain's cost: the whole before-master through the genre's live chain in 320-frame blocks, as a
            // render loop would.
            float[][] audio = WavFiles.readAll(dir.resolve(genre + "-before.wav"));
            Production production = ProductionCatalog.builtIn().forGenre(genre);
            double liveMs = Double.MAX_VALUE;
            for (int rep = 0; rep < 3; rep++) {
                PartChain live = new PartChain(
                        production,
                        production.live(),
                        null,
                        score.tempoMap().getFirst().bpm(),
                        48_000,
                        320);
                long l0 = System.nanoTime();
                for (int at = 0; at + 320 <= audio[0].length; at += 320) {
                    live.process(audio, at, 320);
                }
                liveMs = Math.min(liveMs, (System.nanoTime() - l0) / 1e6 / (audio[0].length / 48_000.0));
            }
            System.out.printf("%s: live chain %.3f ms per second of audio (best of 3)%n", genre, liveMs);
            System.out.printf(
                    "%s: %.0f s rendered in %.2f s; mastered as rendered in %.2f s (%.2f LUFS %.2f dBTP), "
                            + "produced in %.2f s (%.2f LUFS %.2f dBTP)%n",
                    genre,
                    score.duration(),
                    (t1 - t0) / 1e9,
                    (t2 - t1) / 1e9,
                    before.integratedLufs(),
                    before.truePeakDbtp(),
                    (t3 - t2) / 1e9,
                    after.integratedLufs(),
                    after.truePeakDbtp());
        }
    }
}
