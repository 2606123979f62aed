package dev.scorecast.engine.music;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.Section;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Drum fills come from drummers' performances (issue 26, "Phrases that develop"): the groove
 * templates hold one-bar fills of the Groove MIDI Dataset, and the composer ends the drums' phrases
 * with the end of one of them, chosen by the seed among those that suit the bar's level, instead of
 * the pattern's one written fill.
 */
class DrumFillTest {

    @ParameterizedTest
    @ValueSource(
            strings = {"rock", "pop", "corporate", "acoustic", "hip-hop", "lofi", "cinematic", "house", "deep", "techno"
            })
    void theTemplatesHoldDrummersFillsAndNameThem(String genre) {
        Groove groove = StyleBook.builtIn().genre(genre).feelOrDefault().template();
        List<DrumFill> fills = groove.fills();
        assertTrue(fills.size() >= 4, genre + ": " + fills.size() + " fills");
        GrooveSource source = groove.source();
        assertEquals("CC BY 4.0", source.license());
        assertTrue(source.source().startsWith("Groove MIDI Dataset v1.0.0"), source.source());
        for (int i = 0; i < fills.size(); i++) {
            DrumFill f = fills.get(i);
            assertTrue(f.from().endsWith("_fill_4-4.mid"), f.from());
            assertTrue(source.performances().contains(f.from()), genre + ": provenance names " + f.from());
            assertTrue(f.hits().size() >= 5, f.from());
            assertTrue(i == 0 || fills.get(i - 1).hits().size() <= f.hits().size(), "sparsest first");
            f.hits()
                    .forEach(h -> assertTrue(
                            Math.abs(h.offset()) < 0.9 && h.step() >= 0 && h.step() < 16, f.from() + " " + h));
        }
    }

    @Test
    void orchestralAndAmbientKeepTheirWrittenFill() {
        assertTrue(StyleBook.builtIn()
                .genre("orchestral")
                .feelOrDefault()
                .template()
                .fills()
                .isEmpty());
        assertTrue(StyleBook.builtIn()
                .genre("ambient")
                .feelOrDefault()
                .template()
                .fills()
                .isEmpty());
    }

    @Test
    void theCalmLevelsChooseSparseFillsWithoutGhostNotes() {
        List<DrumFill> fills =
                StyleBook.builtIn().genre("rock").feelOrDefault().template().fills();
        SplittableRandom rng = new SplittableRandom(1);
        for (int k = 0; k < 50; k++) {
            int calm = DrumFill.choose(fills, 0, 8, -1, rng);
            int busy = DrumFill.choose(fills, 3, 8, -1, rng);
            assertTrue(
                    fills.get(calm).atLevel(0).countFrom(8)
                            < fills.get(busy).atLevel(3).countFrom(8),
                    "level 0 chose " + calm + ", 3 " + busy);
            fills.get(calm).atLevel(1).hits().forEach(h -> assertTrue(h.velocity() >= DrumFill.GHOST_VELOCITY));
        }
        // Never the same fill twice in a row.
        int previous = -1;
        for (int k = 0; k < 50; k++) {
            int chosen = DrumFill.choose(fills, 2, 8, previous, rng);
            assertTrue(chosen != previous);
            previous = chosen;
        }
    }

    @Test
    void phraseEndsPlayTheEndOfADrummersFillAndTheFillsVary() {
        Plan plan = Plans.plan("rock", 7, 0.9);
        Score score = new Composer().compose(plan);
        Part drums = score.parts().stream()
                .filter(p -> p.group() == InstrumentGroup.BEATS)
                .findFirst()
                .orElseThrow();
        List<DrumFill> fills =
                StyleBook.builtIn().genre("rock").feelOrDefault().template().fills();
        Set<List<Integer>> played = new HashSet<>();
        int phraseEnds = 0;
        for (Section s : plan.sections()) {
            double bar = 4 * 60 / s.tempo();
            double step = bar / 16;
            for (int b = 3; b < s.bars() - 1; b += 4) {
                int from = (b / 4) % 2 == 1 ? 8 : 12; // level 3: the last two beats, then the last one
                double start = s.start() + b * bar + (from - 0.5) * step;
                double end = s.start() + (b + 1) * bar - 0.5 * step;
                List<Integer> pitches = drums.notes().stream()
                        .filter(n -> n.start() >= start && n.start() < end)
                        .map(Note::pitch)
                        .sorted()
                        .toList();
                List<List<Integer>> candidates = new ArrayList<>();
                for (DrumFill f : fills) {
                    candidates.add(f.atLevel(3).hits().stream()
                            .filter(h -> h.step() >= from)
                            .map(DrumFill.Hit::note)
                            .sorted()
                            .toList());
                }
                assertTrue(
                        candidates.contains(pitches),
                        "section " + s.index() + " bar " + b + " plays " + pitches + ", the end of no drummer's fill: "
                                + candidates);
                played.add(pitches);
                phraseEnds++;
            }
        }
        System.out.printf("rock: %d phrase ends, %d different fill endings%n", phraseEnds, played.size());
        assertTrue(
                phraseEnds >= 4 && played.size() >= 3,
                phraseEnds + " phrase ends, " + played.size() + " different fill endings");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rock", "hip-hop", "house", "acoustic"})
    void fillsAreThinnerAtACalmLevel(String genre) {
        List<DrumFill> fills =
                StyleBook.builtIn().genre(genre).feelOrDefault().template().fills();
        double[] hits = new double[4];
        for (int level = 0; level < 4; level++) {
            SplittableRandom rng = new SplittableRandom(5);
            for (int k = 0; k < 200; k++) {
                hits[level] += fills.get(DrumFill.choose(fills, level, 8, -1, rng))
                                .atLevel(level)
                                .countFrom(8)
                        / 200.0;
            }
        }
        System.out.printf(
                "%s: hits in the last two beats of the fills chosen at levels 0-3: %.1f %.1f %.1f %.1f%n",
                genre, hits[0], hits[1], hits[2], hits[3]);
        assertTrue(hits[0] <= hits[1] && hits[1] <= hits[2] && hits[2] <= hits[3] && hits[0] + 1 <= hits[3], genre);
    }

    @Test
    void provenanceNamesTheTemplatesAndTheirFills() {
        List<GrooveSource> sources = Composer.grooveSources(Plans.plan("hip-hop", 3, 0.6));
        assertEquals(1, sources.size());
        GrooveSource hipHop = sources.get(0);
        assertEquals("styles/grooves/hip-hop.json", hipHop.data());
        assertTrue(hipHop.performances().stream().anyMatch(p -> p.endsWith("_beat_4-4.mid")));
        assertTrue(hipHop.performances().stream().anyMatch(p -> p.endsWith("_fill_4-4.mid")));
        assertFalse(hipHop.license().isBlank());
    }
}
