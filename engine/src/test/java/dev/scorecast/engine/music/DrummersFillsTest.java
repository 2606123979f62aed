package dev.scorecast.engine.music;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.PlanOptions;
import dev.scorecast.engine.plan.Section;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 26, "take the vocabulary from real performances": a single 2-minute section, cut four
 * times inside, ends its phrases on drummers' fills of the Groove MIDI Dataset: nearly every four
 * bars (not where a cut falls in the fill), at least three different ones, each a performance of the genre's template, played as the drummer played it (its
 * drums on its sixteenths), none over a struck cut (a fill runs up to the next section's downbeat,
 * never across a cut's crash and kick), and the provenance results.json carries names each one.
 * The section's drum bar rhythms (onsets on sixteenths, pitch ignored, as the issue measures) are
 * printed for docs/SOUND.md.
 */
class DrummersFillsTest {
    /** Struck cuts inside the section, off the bar lines (seconds). */
    private static final double[] CUTS = {17.3, 41.9, 77.05, 101.4};

    @ParameterizedTest
    @ValueSource(strings = {"rock", "pop", "hip-hop", "acoustic", "corporate", "house"})
    void aTwoMinuteSectionEndsItsPhrasesOnDrummersFillsNoneOverACut(String genre) {
        Plan plan = twoMinutes(genre);
        Score score = new Composer().compose(plan);
        Section section = plan.sections().get(0);
        double bar = 240 / section.tempo();
        double step = bar / 16;
        StyleBook.Feel feel = StyleBook.builtIn().genre(genre).feelOrDefault();
        Groove groove = feel.template();
        Map<String, DrumFill> data = new LinkedHashMap<>();
        groove.fills().forEach(f -> data.put(f.from(), f));
        Part drums = score.parts().stream()
                .filter(p -> p.group() == InstrumentGroup.BEATS)
                .findFirst()
                .orElseThrow();
        Set<String> played = new LinkedHashSet<>();
        for (Score.DrumFillPlayed fill : score.drumFills()) {
            if (fill.time() >= section.end()) {
                continue;
            }
            DrumFill from = data.get(fill.performance());
            assertTrue(from != null, fill.performance() + " is no fill of " + genre + "'s template");
            played.add(fill.performance());
            // The fill's span: from its first step to the bar line.
            double barStart = section.start() + Math.floor((fill.time() - section.start()) / bar + 1e-6) * bar;
            double end = barStart + bar;
            for (double cut : CUTS) {
                assertTrue(
                        cut <= fill.time() - HitClearance.DRUM_SECONDS || cut >= end - 1e-6,
                        genre + ": " + fill.performance() + " played " + fill.time() + "-" + end + " over the cut at "
                                + cut);
            }
            // Played as the drummer played it: every note in the span is one of the fill's hits, on its sixteenth.
            int fromStep = (int) Math.round((fill.time() - barStart) / step);
            Set<String> expected = new TreeSet<>();
            from.hits().stream()
                    .filter(h -> h.step() >= fromStep)
                    .forEach(h -> expected.add(h.step() + ":" + h.note()));
            Set<String> heard = new TreeSet<>();
            for (Note n : drums.notes()) {
                // On the swung grid the genre plays (a late hat on the 12th sixteenth is still the 12th's).
                long s = HumanFeelTest.gridStep(n.start() - barStart, step, feel.swing());
                if (s >= fromStep && s < 16 && n.start() < end - HitClearance.DRUM_SECONDS) {
                    heard.add(s + ":" + n.pitch());
                }
            }
            Set<String> clearedTail = new TreeSet<>(expected);
            clearedTail.removeIf(h ->
                    barStart + Integer.parseInt(h.split(":")[0]) * step >= end - HitClearance.DRUM_SECONDS - step / 2);
            // (A groove hit just before the fill, swung and played late, may sit nearer its first step.)
            Set<String> foreign = new TreeSet<>(heard);
            foreign.removeAll(expected);
            foreign.removeIf(h -> h.startsWith(fromStep + ":"));
            assertTrue(
                    foreign.isEmpty() && heard.containsAll(clearedTail),
                    genre + " " + fill.performance() + " from step " + fromStep + ": heard " + heard + ", the fill has "
                            + expected);
        }
        List<String> rhythms = barRhythms(drums, section);
        System.out.printf(
                "%s: a 2-minute section of %d bars plays %d drummers' fills (%d different), %d distinct drum bar"
                        + " rhythms%n",
                genre,
                section.bars(),
                score.drumFills().stream().filter(f -> f.time() < section.end()).count(),
                played.size(),
                new TreeSet<>(rhythms).size());
        // A fill every four bars, never the same twice in a row, the busier of the template's four to eight at this
        // level.
        long fills =
                score.drumFills().stream().filter(f -> f.time() < section.end()).count();
        assertTrue(
                fills >= section.bars() / 4 - 3 && played.size() >= 3,
                genre + ": " + fills + " fills, " + played.size() + " different " + played);
        // results.json's provenance (Provenance.of takes it from here) names every fill played.
        List<String> named = Composer.grooveSources(plan, score).stream()
                .flatMap(g -> g.fillsPlayed().stream())
                .toList();
        assertTrue(named.containsAll(played), "provenance names " + named + ", the drums played " + played);
    }

    /** One section of 120 s at a busy level with four struck cuts inside, then 8 s to end on. */
    static Plan twoMinutes(String genre) {
        double bpm = Plans.StyleBookTempo.typical(genre);
        boolean minor = !List.of("pop", "corporate", "acoustic", "house").contains(genre);
        List<Section> sections = new ArrayList<>();
        double[][] spans = {{0, 120}, {120, 128}};
        for (int i = 0; i < spans.length; i++) {
            double start = spans[i][0];
            double end = spans[i][1];
            int bars = (int) Math.max(1, Math.round((end - start) * bpm / 240));
            double tempo = bars * 240 / (end - start);
            double intensity = 0.8;
            Map<String, Section.Instrument> instruments = new LinkedHashMap<>();
            for (String g : Plans.GROUPS) {
                instruments.put(
                        g,
                        new Section.Instrument(
                                genre, Plans.program(g), null, 0, 0, genre + "/" + g + "/" + Plans.level(intensity)));
            }
            List<Section.Hit> accents = new ArrayList<>();
            if (i == 0) {
                for (double cut : CUTS) {
                    accents.add(new Section.Hit(cut, "impact"));
                }
            }
            sections.add(new Section(
                    i,
                    start,
                    end,
                    "s" + i,
                    tempo,
                    "4/4",
                    bars,
                    0,
                    "A",
                    minor ? "minor" : "major",
                    intensity,
                    minor ? List.of("i", "VI", "III", "VII") : List.of("I", "V", "vi", "IV"),
                    instruments,
                    i == 0 ? null : new Section.Hit(start, "impact"),
                    null,
                    null,
                    accents));
        }
        return new Plan(1, "test", 7, genre, 128, PlanOptions.DEFAULT, Plan.Master.DEFAULT, sections);
    }

    /** Each bar's drum onsets in the section as 16 characters (sixteenths, pitch ignored), as issue 26 measures. */
    static List<String> barRhythms(Part drums, Section section) {
        double bar = 240 / section.tempo();
        List<String> out = new ArrayList<>();
        for (int b = 0; b < section.bars(); b++) {
            char[] grid = "................".toCharArray();
            for (Note n : drums.notes()) {
                long s = Math.round((n.start() - section.start() - b * bar) / (bar / 16));
                if (s >= 0 && s < 16) {
                    grid[(int) s] = 'x';
                }
            }
            out.add(new String(grid));
        }
        return out;
    }
}
