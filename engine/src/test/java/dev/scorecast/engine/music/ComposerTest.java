package dev.scorecast.engine.music;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.Section;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ComposerTest {
    private final Composer composer = new Composer();

    static List<String> genres() {
        return StyleBook.GENRES;
    }

    private static Part part(Score score, InstrumentGroup group) {
        return score.parts().stream()
                .filter(p -> p.group() == group)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + group + " part"));
    }

    @ParameterizedTest
    @MethodSource("genres")
    void everyGenreComposesAFourSectionPlan(String genre) {
        Plan plan = Plans.plan(genre, 42, 0.1, 0.4, 0.9, 0.6);
        Score score = composer.compose(plan);
        assertEquals(60, score.duration());
        assertEquals(7, score.parts().size(), "one part per sounding group");
        for (Part part : score.parts()) {
            assertFalse(part.notes().isEmpty(), genre + " " + part.group() + " has notes");
            int[] range = switch (part.group()) {
                case BEATS -> new int[] {35, 81};
                case BASS -> new int[] {24, 60};
                case HARMONY -> new int[] {36, 88};
                case PADS -> new int[] {36, 96};
                case TOPS -> new int[] {55, 103};
                case MELODY -> new int[] {48, 96};
                case FX, VOCALS -> new int[] {0, 127};
            };
            for (Note n : part.notes()) {
                assertTrue(
                        n.start() >= 0 && n.end() <= plan.duration() + 1e-9,
                        genre + " " + part.group() + " note inside the video: " + n);
                assertTrue(
                        n.pitch() >= range[0] && n.pitch() <= range[1],
                        genre + " " + part.group() + " pitch in range: " + n);
            }
            assertEquals(part.group() == InstrumentGroup.BEATS, part.drums());
        }
        for (Section s : plan.sections()) {
            if (s.index() == 0) {
                // A calm opening (intensity 0.1) is no hit: the drums come in after a bar (HumanFeelTest).
                assertTrue(
                        part(score, InstrumentGroup.BEATS).notes().stream().noneMatch(n -> n.start() == 0),
                        genre + " calm opening");
                continue;
            }
            assertTrue(
                    part(score, InstrumentGroup.BEATS).notes().stream()
                            .anyMatch(n -> n.start() == s.start() && (n.pitch() == 36 || n.pitch() == 49)),
                    genre + " kick/crash exactly at " + s.start());
            assertTrue(
                    part(score, InstrumentGroup.BASS).notes().stream().anyMatch(n -> n.start() == s.start()),
                    genre + " bass exactly at " + s.start());
        }
        // accents: every struck section start (not the first, which has no hit, nor the swell), then the cadence
        assertEquals(
                List.of("impact", "drop", "cadence"),
                score.accents().stream().map(Score.Accent::kind).toList());
        assertEquals("impact", score.accents().get(0).kind());
        assertEquals(12.0, score.accents().get(0).time());
        assertEquals("cadence", score.accents().getLast().kind());
        for (Score.Accent accent : score.accents()) {
            boolean struck = part(score, InstrumentGroup.FX).notes().stream().anyMatch(n -> n.start() == accent.time());
            assertTrue(struck, genre + " effects strike the accent at " + accent.time());
        }
        assertEquals(plan.sections().size(), score.tempoMap().size());
        assertEquals(0.0, score.tempoMap().getFirst().time());
        // The final chord rings until its release has just the time to die away by the end.
        assertTrue(part(score, InstrumentGroup.PADS).notes().stream()
                .anyMatch(n -> Math.abs(n.end() - (60 - NoteOut.TAIL_SECONDS)) < 1e-9));
    }

    @ParameterizedTest
    @MethodSource("genres")
    void samePlanSameScore(String genre) {
        Plan plan = Plans.plan(genre, 7, 0.3, 0.8, 0.5, 0.2);
        assertEquals(composer.compose(plan), new Composer().compose(plan));
    }

    @ParameterizedTest
    @MethodSource("genres")
    void otherSeedOtherMelody(String genre) {
        List<Note> a = part(composer.compose(Plans.plan(genre, 1, 0.6, 0.9)), InstrumentGroup.MELODY)
                .notes();
        List<Note> b = part(composer.compose(Plans.plan(genre, 2, 0.6, 0.9)), InstrumentGroup.MELODY)
                .notes();
        assertNotEquals(
                a.stream().map(Note::pitch).toList(),
                b.stream().map(Note::pitch).toList());
    }

    @ParameterizedTest
    @MethodSource("genres")
    void levelThreeBeatsAreAtLeastTwiceLevelZero(String genre) {
        int quiet = part(composer.compose(Plans.plan(genre, 3, 0.1)), InstrumentGroup.BEATS)
                .notes()
                .size();
        int loud = part(composer.compose(Plans.plan(genre, 3, 0.9)), InstrumentGroup.BEATS)
                .notes()
                .size();
        assertTrue(loud >= 2 * quiet, genre + ": level 3 " + loud + " notes vs level 0 " + quiet);
        for (String group : List.of("bass", "harmony", "tops", "melody")) {
            InstrumentGroup g = InstrumentGroup.fromWire(group).orElseThrow();
            int q = part(composer.compose(Plans.plan(genre, 3, 0.1)), g).notes().size();
            int l = part(composer.compose(Plans.plan(genre, 3, 0.9)), g).notes().size();
            assertTrue(l > q, genre + " " + group + ": level 3 " + l + " notes vs level 0 " + q);
        }
    }

    @ParameterizedTest
    @MethodSource("genres")
    void everyDeclaredPatternComposes(String genre) {
        StyleBook.GenreStyle style = StyleBook.builtIn().genre(genre);
        assertEquals(
                Map.copyOf(style.groups()).keySet(), Set.copyOf(StyleBook.GROUPS), genre + " declares every group");
        for (String group : StyleBook.GROUPS) {
            int levels = style.groups().get(group).levels().size();
            assertEquals(4, levels, genre + "/" + group + " declares 4 levels");
            for (int level = 0; level < levels; level++) {
                double intensity = 0.1 + 0.25 * level;
                Score score = composer.compose(Plans.plan(genre, level, List.of(group), intensity));
                assertEquals(1, score.parts().size());
                assertFalse(score.parts().getFirst().notes().isEmpty(), genre + "/" + group + "/" + level + " plays");
            }
        }
    }

    /** {@code s} alone, at intensity 0.5, with one group playing {@code pattern}. */
    private static Section playing(Section s, String group, String pattern) {
        return s.toBuilder()
                .index(0)
                .residual(0)
                .intensity(0.5)
                .instruments(Map.of(group, new Section.Instrument("pop", 0, null, 0, 0, pattern)))
                .hit(null)
                .lyrics(null)
                .voiceover(null)
                .accents(List.of())
                .composedAgain()
                .build();
    }

    @Test
    void aMissingPatternNamesItself() {
        Plan plan = Plans.plan("pop", 1, 0.5);
        Section s = plan.sections().getFirst();
        Section broken = playing(s, "beats", "pop/beats/7");
        Plan bad = new Plan(1, "x", 1, "pop", s.end(), plan.options(), plan.master(), List.of(broken));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> composer.compose(bad));
        assertTrue(e.getMessage().contains("pop/beats/7"), e.getMessage());
        Section unknown = playing(s, "bass", "polka/bass/1");
        Plan bad2 = new Plan(1, "x", 1, "pop", s.end(), plan.options(), plan.master(), List.of(unknown));
        e = assertThrows(IllegalStateException.class, () -> composer.compose(bad2));
        assertTrue(e.getMessage().contains("polka"), e.getMessage());
    }

    @ParameterizedTest
    @MethodSource("genres")
    void voicesMoveLittle(String genre) {
        Plan plan = Plans.plan(genre, 5, 0.3, 0.6, 0.8, 0.4);
        Score score = composer.compose(plan);
        for (InstrumentGroup g : List.of(InstrumentGroup.PADS, InstrumentGroup.HARMONY)) {
            // Power chords move in parallel by design; spread voicings: the root in the bass
            // follows the progression, the upper voices are led.
            String style =
                    StyleBook.builtIn().genre(genre).groups().get(g.wire()).voicing();
            if ("power".equals(style)) {
                continue;
            }
            boolean upperOnly = "spread".equals(style);
            // Chords: notes starting within 25 ms of each other; compared with the previous
            // different chord of the same section (sections may change key).
            TreeMap<Long, List<Integer>> chords = new TreeMap<>();
            List<Note> notes = new ArrayList<>(part(score, g).notes());
            notes.sort(Comparator.comparingDouble(Note::start));
            double chordStart = -1;
            for (Note n : notes) {
                if (n.start() - chordStart > 0.025) {
                    chordStart = n.start();
                }
                chords.computeIfAbsent(Math.round(chordStart * 1e6), k -> new ArrayList<>())
                        .add(n.pitch());
            }
            double moved = 0;
            int voices = 0;
            int[] previous = null;
            int previousSection = -1;
            for (Map.Entry<Long, List<Integer>> chord : chords.entrySet()) {
                double t = chord.getKey() / 1e6;
                int section = (int) plan.sections().stream()
                                .filter(s -> s.start() <= t + 1e-9)
                                .count()
                        - 1;
                int[] v = chord.getValue().stream()
                        .mapToInt(Integer::intValue)
                        .sorted()
                        .skip(upperOnly ? 1 : 0)
                        .toArray();
                if (v.length < 2 || previous != null && Arrays.equals(previous, v)) {
                    continue;
                }
                if (previous != null && section == previousSection) {
                    moved += Voicings.movement(previous, v);
                    voices += v.length;
                }
                previous = v;
                previousSection = section;
            }
            double perVoice = moved / Math.max(1, voices);
            assertTrue(voices > 0, genre + " " + g + " changes chords");
            assertTrue(
                    perVoice <= 2.5, genre + " " + g + " moves " + perVoice + " semitones per voice per chord change");
        }
    }

    @Test
    void voiceLeadingPicksTheNearestInversion() {
        // C major to F major in close position from C4-E4-G4: C4-F4-A4 (2 semitones in all).
        int[] c = {60, 64, 67};
        int[] f = Voicings.lead(c, Chord.parse("IV", "C", "major").pitchClasses(), "close", 3, 55, 76);
        assertEquals(List.of(60, 65, 69), Arrays.stream(f).boxed().toList());
        int[] g = Voicings.lead(c, Chord.parse("V", "C", "major").pitchClasses(), "close", 3, 55, 76);
        assertEquals(List.of(59, 62, 67), Arrays.stream(g).boxed().toList());
    }

    @Test
    void oddPlansStillComposeInsideTheVideo() {
        SplittableRandom rng = new SplittableRandom(99);
        String[] meters = {"4/4", "3/4", "6/8", "2/4"};
        String[] modes = {"major", "minor", "dorian", "mixolydian"};
        String[] symbols = {"I", "ii7", "bVII", "#ivdim", "Vsus4", "vi", "IVmaj7", "iiiadd9", "V7", "bVIaug"};
        for (int trial = 0; trial < 60; trial++) {
            String genre = StyleBook.GENRES.get(trial % StyleBook.GENRES.size());
            List<Section> sections = new ArrayList<>();
            double start = trial % 3 == 0 ? 0.37 : 0; // music may start after the video does
            int count = 1 + rng.nextInt(4);
            for (int i = 0; i < count; i++) {
                String meter = meters[rng.nextInt(meters.length)];
                int beats = Integer.parseInt(meter.substring(0, 1));
                int bars = 1 + rng.nextInt(5);
                double tempo = 60 + rng.nextInt(100);
                double end = start + bars * beats * 60 / tempo;
                double intensity = rng.nextDouble();
                Map<String, Section.Instrument> instruments = new LinkedHashMap<>();
                for (String g : StyleBook.GROUPS) {
                    if (rng.nextInt(4) > 0) {
                        instruments.put(
                                g,
                                new Section.Instrument(
                                        genre,
                                        Plans.program(g),
                                        null,
                                        0,
                                        0,
                                        genre + "/" + g + "/" + Plans.level(intensity)));
                    }
                }
                List<String> progression = new ArrayList<>();
                for (int k = 0; k < 1 + rng.nextInt(5); k++) {
                    progression.add(symbols[rng.nextInt(symbols.length)]);
                }
                String[] kinds = {"impact", "drop", "swell", "crash", null};
                String kind = kinds[rng.nextInt(kinds.length)];
                sections.add(new Section(
                        i,
                        start,
                        end,
                        "x",
                        tempo,
                        meter,
                        bars,
                        0,
                        "F#",
                        modes[rng.nextInt(4)],
                        intensity,
                        progression,
                        instruments,
                        kind == null ? null : new Section.Hit(start, kind),
                        null,
                        null));
                start = end;
            }
            Plan plan = new Plan(1, "fuzz", trial, genre, start, null, null, sections);
            Score score = composer.compose(plan);
            for (Part part : score.parts()) {
                for (Note n : part.notes()) {
                    assertTrue(
                            n.start() >= 0 && n.end() <= plan.duration() + 1e-9,
                            "trial " + trial + " " + part.group() + " " + n);
                }
            }
            for (Section s : sections) {
                boolean calmOpening =
                        s.index() == 0 && s.intensity() < 0.5 && (s.hit() == null || !Composer.strikes(s.hit()));
                if (s.instruments().containsKey("beats") && !calmOpening) {
                    assertTrue(part(score, InstrumentGroup.BEATS).notes().stream()
                            .anyMatch(n -> n.start() == s.start() && n.pitch() == 36));
                }
            }
        }
    }
}
