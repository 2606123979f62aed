package dev.scorecast.engine.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.analysis.Cut;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.style.ChordSymbol;
import dev.scorecast.engine.style.Genre;
import dev.scorecast.engine.style.GenreCatalog;
import dev.scorecast.engine.style.Keys;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PlannerTest {
    static final GenreCatalog GENRES = GenreCatalog.builtIn();
    static final Planner PLANNER = new Planner(GENRES);

    static GenerationOptions genre(String genre, Long seed) {
        return GenerationOptions.DEFAULT.withGenre(genre).withSeed(seed);
    }

    @Test
    void sectionsStartExactlyOnWellSpacedCuts() {
        Analysis analysis = Analyses.flat(60, 15, 30, 45);
        for (String genre : List.of("house", "cinematic", "rock", "ambient")) {
            Plan plan = PLANNER.plan(analysis, genre(genre, 7L));
            List<Double> starts = plan.sections().stream().map(Section::start).toList();
            assertTrue(starts.containsAll(List.of(0.0, 15.0, 30.0, 45.0)), genre + ": " + starts);
            assertEquals(60, plan.sections().getLast().end(), 0.0, "the music ends on the video's last frame");
            for (Section s : plan.sections()) {
                assertTrue(starts.indexOf(s.start()) >= 0);
            }
        }
        Plan house = PLANNER.plan(analysis, genre("house", 7L));
        assertEquals(
                List.of(0.0, 15.0, 30.0, 45.0),
                house.sections().stream().map(Section::start).toList());
    }

    @Test
    void everySectionStartIsTheStartACutOrABarLineOfALongStretch() {
        for (long seed = 0; seed < 15; seed++) {
            Analysis analysis = Analyses.random(seed, 40 + seed * 20, (int) (4 + seed * 3));
            Set<Double> cutTimes = analysis.cuts().stream().map(Cut::time).collect(Collectors.toSet());
            Plan plan = PLANNER.plan(analysis, genre(null, seed));
            Section previous = null;
            for (Section s : plan.sections()) {
                boolean onCut = cutTimes.contains(s.start());
                boolean phraseSplit = previous != null && previous.tempo() == s.tempo() && !onCut;
                assertTrue(s.start() == 0 || onCut || phraseSplit, "section " + s.index() + " at " + s.start());
                if (previous != null) {
                    assertEquals(previous.end(), s.start(), 0.0, "sections meet exactly");
                }
                previous = s;
            }
        }
    }

    @Test
    void cutsTooCloseForAPhraseBecomeAccentsInsideASection() {
        Plan plan = PLANNER.plan(Analyses.flat(40, 10, 11, 20, 21.5, 30), genre("house", 1L));
        List<Double> starts = plan.sections().stream().map(Section::start).toList();
        assertFalse(starts.contains(11.0), starts.toString());
        assertFalse(starts.contains(21.5), starts.toString());
        List<Double> accents = plan.sections().stream()
                .flatMap(s -> s.accents().stream())
                .map(Section.Hit::time)
                .toList();
        assertTrue(accents.contains(11.0) || starts.contains(11.0) || accents.contains(10.0), accents.toString());
        for (Section s : plan.sections()) {
            for (Section.Hit accent : s.accents()) {
                assertTrue(accent.time() > s.start() && accent.time() < s.end());
            }
            assertTrue(
                    s.durationSeconds() >= 3.0 - 1e-9, "no section shorter than three seconds: " + s.durationSeconds());
        }
    }

    @Test
    void everyResidualIsWithinOneFrameAndTempoInsideTheGenreRange() {
        for (Genre genre : GENRES.all()) {
            for (long seed = 0; seed < 8; seed++) {
                Analysis analysis =
                        Analyses.random(seed * 31 + genre.id().hashCode(), 30 + seed * 45, (int) (3 + seed * 6));
                Plan plan = PLANNER.plan(analysis, genre(genre.id(), seed));
                double frame = 1 / analysis.video().fps();
                for (Section s : plan.sections()) {
                    double residual = s.durationSeconds() - s.bars() * s.beatsPerBar() * 60 / s.tempo();
                    assertTrue(
                            Math.abs(residual) <= frame,
                            genre.id() + " section " + s.index() + " misses by " + residual);
                    assertEquals(residual, s.residual(), 1e-6, "the residual is reported");
                    assertTrue(
                            s.tempo() >= genre.tempoMinBpm() && s.tempo() <= genre.tempoMaxBpm(),
                            genre.id() + " tempo " + s.tempo() + " of section " + s.index() + " (" + s.durationSeconds()
                                    + " s)");
                    assertEquals(s.tempo(), Math.round(s.tempo() * 1000) / 1000.0, 0.0, "tempo rounded to 0.001 bpm");
                }
                PlanValidator.validate(plan, analysis.video().duration(), GENRES);
            }
        }
    }

    @Test
    void tempoChangesLittleBetweenSections() {
        Plan plan = PLANNER.plan(Analyses.random(3, 300, 40), genre("rock", 3L));
        for (int i = 1; i < plan.sections().size(); i++) {
            double change = Math.abs(
                    plan.sections().get(i).tempo() - plan.sections().get(i - 1).tempo());
            assertTrue(change <= 15, "tempo jumps by " + change + " bpm at section " + i);
        }
    }

    @Test
    void theSameSeedGivesTheSameJsonAndNoSeedIsDerivedFromTheAnalysis() {
        Analysis analysis = Analyses.random(11, 180, 25);
        assertEquals(
                PlanJson.write(PLANNER.plan(analysis, genre("pop", 99L))),
                PlanJson.write(PLANNER.plan(analysis, genre("pop", 99L))));
        Plan a = PLANNER.plan(analysis, GenerationOptions.DEFAULT);
        Plan b = PLANNER.plan(analysis, GenerationOptions.DEFAULT);
        assertEquals(PlanJson.write(a), PlanJson.write(b));
        assertTrue(a.seed() >= 0 && a.seed() < (1L << 53), "a derived seed survives a JavaScript number");
        assertNotEquals(
                a.seed(),
                PLANNER.plan(Analyses.random(12, 180, 25), GenerationOptions.DEFAULT)
                        .seed());
        assertEquals(99L, PLANNER.plan(analysis, genre("pop", 99L)).seed());
    }

    @Test
    void differentGenresChooseDifferentSounds() {
        Analysis analysis = Analyses.random(5, 120, 12);
        Set<Map<String, Integer>> programs = new HashSet<>();
        Set<Integer> harmony = new HashSet<>();
        for (Genre genre : GENRES.all()) {
            Plan plan = PLANNER.plan(analysis, genre(genre.id(), 1L));
            Map<String, Integer> sound = plan.sections().stream()
                    .flatMap(s -> s.instruments().entrySet().stream())
                    .collect(Collectors.toMap(
                            Map.Entry::getKey, e -> e.getValue().program(), (x, y) -> x, TreeMap::new));
            assertTrue(programs.add(sound), genre.id() + " sounds like another genre: " + sound);
            plan.sections().forEach(s -> {
                var h = s.instruments().get("harmony");
                if (h != null) {
                    harmony.add(h.program());
                }
            });
            assertEquals(genre.id(), plan.genre());
        }
        assertTrue(harmony.size() >= 8, "harmony programs across genres: " + harmony);
    }

    @Test
    void patternIdsFollowTheConventionAndVocalsComeOnlyWhenAsked() {
        Analysis analysis = Analyses.random(8, 200, 20);
        Plan plain = PLANNER.plan(analysis, genre("house", 2L));
        for (Section s : plain.sections()) {
            assertFalse(s.instruments().containsKey("vocals"));
            int level = Planner.level(s.intensity());
            s.instruments().forEach((group, part) -> {
                assertEquals("house/" + group + "/" + level, part.pattern());
                assertEquals("house", part.soundset());
                assertNull(part.name(), "no names unless with_instrument");
            });
        }
        Plan sung = PLANNER.plan(
                analysis,
                GenerationOptions.DEFAULT.withVocals(true).withGenre("house").withSeed(2L));
        assertTrue(sung.sections().stream().anyMatch(s -> s.instruments().containsKey("vocals")));
        assertTrue(sung.options().vocals());
        Plan ambient = PLANNER.plan(analysis, genre("ambient", 2L));
        assertTrue(
                ambient.sections().stream().noneMatch(s -> s.instruments().containsKey("beats")),
                "ambient has no beats");
    }

    @Test
    void withInstrumentNamesInstrumentsFromThePalette() {
        Analysis analysis = Analyses.random(9, 240, 30);
        Plan plan = PLANNER.plan(
                analysis,
                GenerationOptions.DEFAULT
                        .withInstrument(true)
                        .withGenre("orchestral")
                        .withSeed(4L));
        var palette = GENRES.find("orchestral").orElseThrow().arrangement().groups();
        Set<String> names = new HashSet<>();
        for (Section s : plan.sections()) {
            s.instruments().forEach((group, part) -> {
                assertNotNull(part.name());
                assertTrue(
                        palette.get(group).palette().stream()
                                .anyMatch(v -> v.name().equals(part.name()) && v.program() == part.program()),
                        group + " " + part.name());
                names.add(part.name());
            });
        }
        assertTrue(names.size() >= 4, names.toString());
    }

    @Test
    void labelsAndIntensityFollowTheEnergyCurve() {
        // quiet, rising, loud, falling, quiet: five scenes of 20 s
        Analysis analysis = Analyses.of(
                100,
                25,
                Analyses.cuts(20, 40, 60, 80),
                t -> t < 20 ? 0.1 : t < 40 ? 0.4 : t < 60 ? 0.9 : t < 80 ? 0.3 : 0.1,
                0.7,
                0.5,
                "pop",
                110);
        Plan plan = PLANNER.plan(analysis, genre("pop", 1L));
        List<Section> s = plan.sections();
        assertEquals(5, s.size(), s.stream().map(Section::start).toList().toString());
        assertEquals(
                List.of("intro", "build", "peak", "breakdown", "outro"),
                s.stream().map(Section::label).toList());
        assertTrue(s.get(2).intensity() > s.get(1).intensity()
                && s.get(1).intensity() > s.get(0).intensity());
        assertTrue(
                s.get(2).intensity() >= 0.75 && s.get(0).intensity() < 0.25,
                s.stream().map(Section::intensity).toList().toString());
        assertTrue(s.get(2).instruments().size() > s.get(0).instruments().size(), "the peak plays more groups");
        assertTrue(
                List.of("drop", "impact").contains(s.get(2).hit().kind()),
                s.get(2).hit().toString());
        for (Section section : s) {
            assertEquals(section.start(), section.hit().time(), 0.0, "the hit is on the first downbeat");
        }
    }

    @Test
    void keysRelateAndChordsParse() {
        for (long seed = 0; seed < 20; seed++) {
            Plan plan = PLANNER.plan(Analyses.random(seed, 400, 40), genre(null, seed));
            String homeKey = plan.sections().getFirst().key();
            int home = Keys.pitchClass(homeKey);
            for (Section s : plan.sections()) {
                // home, relative, fourth, fifth; or the same around home a step up after a final lift
                Set<Integer> related = Set.of(0, 3, 5, 7, 9);
                int shift = Math.floorMod(Keys.pitchClass(s.key()) - home, 12);
                boolean lifted =
                        GENRES.find(plan.genre()).orElseThrow().arrangement().lift()
                                && related.contains(Math.floorMod(shift - 2, 12));
                assertTrue(related.contains(shift) || lifted, "key " + s.key() + " against home " + homeKey);
                assertTrue(
                        s.progression().stream().allMatch(ChordSymbol::isValid),
                        s.progression().toString());
            }
        }
    }

    @Test
    void valenceChoosesTheMode() {
        Analysis happy = Analyses.of(30, 25, List.of(), t -> 0.5, 0.9, 0.5, "pop", 110);
        Analysis sad = Analyses.of(30, 25, List.of(), t -> 0.5, 0.1, 0.5, "pop", 110);
        assertEquals(
                "major",
                PLANNER.plan(happy, genre("pop", 1L)).sections().getFirst().mode());
        assertEquals(
                "minor",
                PLANNER.plan(sad, genre("pop", 1L)).sections().getFirst().mode());
    }

    @Test
    void optionsAndDefaultsCarryIntoThePlan() {
        Analysis analysis = Analyses.flat(30, 12);
        Plan plan = PLANNER.plan(
                analysis,
                GenerationOptions.DEFAULT
                        .withVoiceover(true)
                        .withOriginalAudio(true)
                        .withDucking(false)
                        .withMultitrack(false)
                        .withSeed(5L)
                        .withVoiceoverScript("A short line."));
        assertEquals(new PlanOptions(false, true, false, true, false, false, false), plan.options());
        assertEquals("en-us", plan.options().voiceoverVoice());
        assertEquals(160, plan.options().voiceoverWordsPerMinute());
        assertEquals(Plan.Master.DEFAULT, plan.master());
        assertEquals("house", plan.genre(), "the analysis' suggestion");
        assertNull(plan.id());
        assertEquals(30, plan.duration());
        assertTrue(plan.sections().stream().allMatch(s -> s.lyrics() == null), "no vocals asked for");
        assertEquals(
                List.of("A short line."),
                plan.sections().stream()
                        .flatMap(s -> s.voiceover().stream())
                        .map(l -> l.text())
                        .toList());
        assertEquals("plan_1", plan.withId("plan_1").id());
    }

    @Test
    void anUnknownGenreIsRefusedWithTheValidIds() {
        var e = assertThrows(InvalidParameter.class, () -> PLANNER.plan(Analyses.flat(30), genre("polka-metal", 1L)));
        assertEquals("genre", e.field());
        assertTrue(
                e.getMessage().contains("polka-metal")
                        && e.getMessage().contains("hip-hop")
                        && e.getMessage().contains("corporate"),
                e.getMessage());
    }

    @Test
    void aTwoSecondVideoAndAThirtyMinuteOneBothPlanWellUnderASecond() {
        for (Genre genre : GENRES.all()) {
            long t0 = System.nanoTime();
            Plan tiny = PLANNER.plan(Analyses.flat(2), genre(genre.id(), 1L));
            assertTrue(System.nanoTime() - t0 < 1_000_000_000L);
            assertEquals(1, tiny.sections().size());
            assertEquals(2, tiny.sections().getFirst().end(), 0.0);
            PlanValidator.validate(tiny, 2, GENRES);
        }
        Analysis long_ = Analyses.random(21, 1800, 400);
        long t0 = System.nanoTime();
        Plan plan = PLANNER.plan(long_, genre("techno", 1L));
        long millis = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(millis < 1000, "30 minutes planned in " + millis + " ms");
        assertEquals(1800, plan.sections().getLast().end(), 0.0);
        assertTrue(
                plan.sections().size() > 20,
                "long videos evolve: " + plan.sections().size() + " sections");
        assertTrue(plan.sections().stream().allMatch(s -> s.bars() <= 2 * 16), "long stretches are split into phrases");
        PlanValidator.validate(plan, 1800, GENRES);
    }

    @Test
    void evenThreeThousandCutsInHalfAnHourPlanUnderASecond() {
        Analysis busy = Analyses.random(77, 1800, 3000);
        long t0 = System.nanoTime();
        Plan plan = PLANNER.plan(busy, genre("house", 1L));
        long millis = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(millis < 1000, "3000 cuts planned in " + millis + " ms");
        PlanValidator.validate(plan, 1800, GENRES);
    }

    @Test
    void aLongStretchWithoutCutsIsSplitIntoPhrasesAtBarLines() {
        Plan plan = PLANNER.plan(Analyses.flat(200), genre("pop", 1L));
        assertTrue(plan.sections().size() >= 5, plan.sections().size() + " sections");
        double tempo = plan.sections().getFirst().tempo();
        for (Section s : plan.sections()) {
            assertEquals(tempo, s.tempo(), 0.0, "one steady tempo across the phrases");
            assertTrue(s.bars() >= 4 && s.bars() <= 12, s.bars() + " bars");
        }
    }

    /** A client edits bars or intensity and keeps the curve: the curve is read across the new bars, and moves with the intensity. */
    @Test
    void aBarCurveFollowsAnEditedSection() {
        Section s = new Section(
                0,
                0,
                8,
                "build",
                120,
                "4/4",
                4,
                0,
                "C",
                "major",
                0.5,
                List.of("I"),
                Map.of(),
                null,
                null,
                List.of(),
                List.of(),
                List.of(0.2, 0.4, 0.6, 0.8));
        assertEquals(0.2, s.intensityOfBar(0), 1e-9);
        assertEquals(0.8, s.intensityOfBar(3), 1e-9);
        Section moreBars = new Section(
                0,
                0,
                16,
                "build",
                120,
                "4/4",
                8,
                0,
                "C",
                "major",
                0.5,
                List.of("I"),
                Map.of(),
                null,
                null,
                List.of(),
                List.of(),
                s.barIntensity());
        assertEquals(
                List.of(0.2, 0.2, 0.4, 0.4, 0.6, 0.6, 0.8, 0.8),
                IntStream.range(0, 8).mapToObj(moreBars::intensityOfBar).toList());
        Section louder = new Section(
                0,
                0,
                8,
                "build",
                120,
                "4/4",
                4,
                0,
                "C",
                "major",
                0.8,
                List.of("I"),
                Map.of(),
                null,
                null,
                List.of(),
                List.of(),
                s.barIntensity());
        assertEquals(0.5, louder.intensityOfBar(0), 1e-9, "moved up by the 0.3 the client added");
        assertEquals(1.0, louder.intensityOfBar(3), 1e-9, "and held at 1");
        Section flat = new Section(
                0, 0, 8, "build", 120, "4/4", 4, 0, "C", "major", 0.3, List.of("I"), Map.of(), null, null, List.of());
        assertEquals(0.3, flat.intensityOfBar(2), 1e-9, "no curve: every bar at the section's intensity");
    }
}
