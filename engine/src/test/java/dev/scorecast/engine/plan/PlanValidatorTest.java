package dev.scorecast.engine.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.ScorecastException.FieldProblem;
import dev.scorecast.engine.style.GenreCatalog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class PlanValidatorTest {
    static final GenreCatalog GENRES = GenreCatalog.builtIn();
    /** Three sections of 15 s on cuts, house at 128 bpm: 8 bars each. */
    static final Plan PLAN = new Planner(GENRES).plan(Analyses.flat(45, 15, 30), PlannerTest.genre("house", 3L));

    static Plan edit(int index, UnaryOperator<Section> change) {
        List<Section> sections = new ArrayList<>(PLAN.sections());
        sections.set(index, change.apply(sections.get(index)));
        return PLAN.withSections(sections);
    }

    static Section with(Section s, double start, double end, double tempo, int bars) {
        return s.toBuilder()
                .start(start)
                .end(end)
                .tempo(tempo)
                .bars(bars)
                .composedAgain()
                .build();
    }

    static Section keyed(Section s, String key, List<String> progression) {
        return s.toBuilder().key(key).progression(progression).composedAgain().build();
    }

    static InvalidParameter refused(Plan plan) {
        return assertThrows(InvalidParameter.class, () -> PlanValidator.validate(plan, 45, GENRES));
    }

    static FieldProblem problem(InvalidParameter e, String field) {
        return e.problems().stream()
                .filter(p -> p.field().equals(field))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no problem for " + field + " among " + e.problems()));
    }

    @Test
    void thePlannersPlanIsValid() {
        assertEquals(3, PLAN.sections().size(), PLAN.sections().toString());
        assertEquals(PlanJson.write(PLAN), PlanJson.write(PlanValidator.validate(PLAN, 45, GENRES)));
    }

    @Test
    void overlappingSectionsAreNamed() {
        var e = refused(edit(1, s -> with(s, 14, 30, s.tempo(), s.bars())));
        assertTrue(problem(e, "sections[1].start").message().contains("overlaps sections[0]"));
    }

    @Test
    void tempoZeroAndAThousandAreRefused() {
        var zero = refused(edit(0, s -> with(s, s.start(), s.end(), 0, s.bars())));
        assertTrue(problem(zero, "sections[0].tempo").message().contains("not 0"));
        var fast = refused(edit(2, s -> with(s, s.start(), s.end(), 1000, s.bars())));
        assertEquals(
                "tempo must be 40 to 240 beats per minute, not 1000",
                problem(fast, "sections[2].tempo").message());
    }

    @Test
    void aSectionPastTheEndIsRefused() {
        var e = refused(edit(2, s -> with(s, 30, 50, 128, 10.0 * 128 / 128 > 0 ? 11 : 0)));
        assertTrue(problem(e, "sections[2].end").message().contains("past the end of the video"));
    }

    @Test
    void theLastSectionMustReachTheEnd() {
        var e = refused(edit(2, s -> with(s, 30, 40, 120, 5)));
        assertTrue(problem(e, "sections[2].end").message().contains("must end at the video's end"));
    }

    @Test
    void barsThatDoNotFillTheSectionReportTheResidual() {
        var e = refused(edit(1, s -> with(s, s.start(), s.end(), 100, s.bars())));
        String message = problem(e, "sections[1].bars").message();
        assertTrue(message.contains("residual") && message.contains("set tempo to 128"), message);
    }

    @Test
    void unknownGenreBadKeyAndBadChordAreAllReportedAtOnce() {
        Plan broken = edit(0, s -> keyed(s, "H", List.of("i", "VIII", "bVIImaj7")));
        broken = new Plan(
                broken.version(),
                broken.id(),
                broken.seed(),
                "polka",
                broken.duration(),
                broken.options(),
                broken.master(),
                broken.sections());
        var e = refused(broken);
        assertTrue(problem(e, "genre").message().contains("house"));
        assertTrue(problem(e, "sections[0].key").message().contains("not 'H'"));
        assertTrue(problem(e, "sections[0].progression[1]").message().contains("'VIII'"));
        assertEquals(3, e.problems().size(), e.problems().toString());
        assertEquals("genre", e.field());
    }

    @Test
    void instrumentFieldsAreChecked() {
        Plan broken = edit(0, s -> {
            var instruments = new LinkedHashMap<>(s.instruments());
            var harmony = instruments.get("harmony");
            instruments.put("harmony", new Section.Instrument("jazz", 20000, null, 40, 2, "house/bass/9"));
            instruments.put("kazoo", harmony);
            return s.toBuilder().instruments(instruments).composedAgain().build();
        });
        var e = refused(broken);
        for (String field : List.of("soundset", "program", "gain_db", "pan", "pattern")) {
            problem(e, "sections[0].instruments.harmony." + field);
        }
        problem(e, "sections[0].instruments.kazoo");
    }

    @Test
    void otherSectionFieldsAreChecked() {
        Plan broken = edit(
                1,
                s -> s.toBuilder()
                        .label("chorus")
                        .meter("5/4")
                        .mode("lydian")
                        .intensity(1.5)
                        .progression(List.of())
                        .hit(new Section.Hit(3, "boom"))
                        .lyrics(null)
                        .voiceover(List.of())
                        .accents(List.of())
                        .composedAgain()
                        .build());
        var e = refused(broken);
        for (String field : List.of("label", "meter", "mode", "intensity", "progression", "hit.time", "hit.kind")) {
            problem(e, "sections[1]." + field);
        }
        var master =
                refused(new Plan(1, null, 1, "house", 45, PLAN.options(), new Plan.Master(0, 20), PLAN.sections()));
        problem(master, "master.target_lufs");
        problem(master, "master.gain_db");
        var empty = refused(PLAN.withSections(List.of()));
        problem(empty, "sections");
        var version = refused(new Plan(2, null, 1, "house", 45, PLAN.options(), PLAN.master(), PLAN.sections()));
        problem(version, "version");
    }

    @Test
    void aGapAndAFirstSectionNotAtZeroAreRefused() {
        var gap = refused(edit(1, s -> with(s, 16, 30, 120, 7)));
        assertTrue(problem(gap, "sections[1].start").message().contains("gap"));
        var late = refused(edit(0, s -> with(s, 1, 15, 120, 7)));
        assertTrue(problem(late, "sections[0].start").message().contains("start at 0"));
    }

    @Test
    void aValidEditComesBackRenumberedWithItsResidualRecomputed() {
        Plan edited = edit(1, s -> with(s, s.start(), s.end(), 128.2, s.bars()).withIndexAndResidual(7, 99));
        Plan valid = PlanValidator.validate(edited, 45, GENRES);
        assertEquals(1, valid.sections().get(1).index());
        assertEquals(15 - 8 * 4 * 60 / 128.2, valid.sections().get(1).residual(), 1e-6);
        assertSame(PLAN.options(), valid.options());
    }
}
