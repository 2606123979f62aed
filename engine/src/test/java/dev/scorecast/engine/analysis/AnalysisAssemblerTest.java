package dev.scorecast.engine.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.analysis.Analysis.Mood;
import dev.scorecast.engine.analysis.Analysis.VideoFacts;
import dev.scorecast.engine.style.Genre;
import dev.scorecast.engine.style.GenreCatalog;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class AnalysisAssemblerTest {
    static final GenreCatalog GENRES = GenreCatalog.builtIn();

    static VisualAnalysis visual(double motionLevel, List<Cut> cuts, List<Scene> scenes, int hops) {
        double[] motion = new double[hops];
        Arrays.fill(motion, motionLevel);
        return new VisualAnalysis(cuts, scenes, 0.1, motion, hops * 3L, 0, List.of());
    }

    @Test
    void theCatalogueHasTheTwelveGenres() {
        assertEquals(
                List.of(
                        "deep",
                        "cinematic",
                        "ambient",
                        "lofi",
                        "house",
                        "techno",
                        "hip-hop",
                        "rock",
                        "pop",
                        "acoustic",
                        "orchestral",
                        "corporate"),
                GENRES.all().stream().map(Genre::id).toList());
    }

    @Test
    void energyCoversTheWholeVideoEveryTenthOfASecond() {
        var facts = new VideoFacts(10, 320, 240, 30, 300, false, "h264", 0);
        Analysis analysis = AnalysisAssembler.assemble(
                facts,
                visual(0.4, List.of(), List.of(new Scene(0, 0, 10, 0.4, 0.5, 0.5, 0.5)), 100),
                Optional.empty(),
                GENRES);
        assertEquals(100, analysis.energy().values().length);
        assertEquals(0.75 * 0.4, analysis.energy().values()[50], 1e-9, "without sound, motion carries 0.75");
        assertTrue(analysis.quality().warnings().stream().anyMatch(w -> w.contains("no audio track")));
    }

    @Test
    void cutsRaiseEnergyAroundThem() {
        var facts = new VideoFacts(10, 320, 240, 30, 300, false, "h264", 0);
        List<Cut> cuts = List.of(Cut.hard(5.0, 150, 1.0));
        double[] energy = AnalysisAssembler.energy(10, visual(0.2, cuts, List.of(), 100), Optional.empty(), cuts);
        assertTrue(energy[50] > energy[10], "near the cut " + energy[50] + " vs far " + energy[10]);
    }

    @Test
    void loudSoundRaisesEnergy() {
        double[] loud = new double[100];
        Arrays.fill(loud, 0.9);
        double[] quiet = new double[100];
        var loudAudio = new AudioAnalysis(-10.0, -1, List.of(), List.of(), 0.1, loud);
        var quietAudio = new AudioAnalysis(-40.0, -20, List.of(), List.of(), 0.1, quiet);
        VisualAnalysis picture = visual(0.3, List.of(), List.of(), 100);
        assertTrue(AnalysisAssembler.energy(10, picture, Optional.of(loudAudio), List.of())[40]
                > AnalysisAssembler.energy(10, picture, Optional.of(quietAudio), List.of())[40]);
    }

    @Test
    void darkSlowFootageIsCalmAndSombreBrightBusyFootageIsExcitedAndHappy() {
        List<Scene> dark = List.of(new Scene(0, 0, 60, 0.05, 0.15, 0.1, 0.3));
        Mood calm = AnalysisAssembler.mood(dark, new double[] {0.05, 0.05, 0.06}, List.of(), 60);
        List<Scene> bright = List.of(new Scene(0, 0, 60, 0.8, 0.8, 0.9, 0.75));
        List<Cut> fastCutting =
                IntStream.range(1, 60).mapToObj(i -> Cut.hard(i, i * 30L, 0.8)).toList();
        Mood excited = AnalysisAssembler.mood(bright, new double[] {0.8, 0.9, 0.85}, fastCutting, 60);
        assertTrue(calm.arousal() < 0.2 && calm.valence() < 0.2, calm.toString());
        assertTrue(excited.arousal() > 0.7 && excited.valence() > 0.8, excited.toString());
        assertNotEquals(
                AnalysisAssembler.suggest(calm, 0, GENRES).genre(),
                AnalysisAssembler.suggest(excited, 0, GENRES).genre());
    }

    @Test
    void suggestionsStayInsideTheGenresTempoRangeAndGiveWayToDialogue() {
        var mood = new Mood(0.55, 0.85);
        var plain = AnalysisAssembler.suggest(mood, 0.0, GENRES);
        Genre genre = GENRES.find(plain.genre()).orElseThrow();
        assertTrue(plain.tempo() >= genre.tempoMinBpm() && plain.tempo() <= genre.tempoMaxBpm());
        assertEquals(2, plain.alternatives().size());
        var talky = AnalysisAssembler.suggest(mood, 0.6, GENRES);
        assertTrue(GENRES.find(talky.genre()).orElseThrow().dialogueFriendly(), talky.genre());
    }
}
