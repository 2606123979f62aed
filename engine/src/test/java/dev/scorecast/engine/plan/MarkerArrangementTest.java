package dev.scorecast.engine.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.error.Unprocessable;
import dev.scorecast.engine.plan.EditorMarker.Kind;
import dev.scorecast.engine.style.GenreCatalog;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The editor's markers written into a planned piece: where sections start, what they strike, where they rest. */
class MarkerArrangementTest {
    static final GenreCatalog GENRES = GenreCatalog.builtIn();
    static final MarkerArrangement ARRANGE = new MarkerArrangement(GENRES);

    /** 30 s at 25 fps, cuts at 10 and 20 s: house. */
    static Plan planned() {
        return new Planner(GENRES)
                .plan(
                        Analyses.flat(30, 10, 20),
                        GenerationOptions.DEFAULT.withGenre("house").withSeed(7L));
    }

    static Section at(Plan plan, double t) {
        return plan.sections().stream()
                .filter(s -> s.start() <= t + 1e-9 && t < s.end() - 1e-9)
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aHitIsAnAccentAndADropStartsAFullSection() {
        Plan plan = ARRANGE.apply(
                planned(), List.of(new EditorMarker(5.0, Kind.HIT), new EditorMarker(14.0, Kind.DROP)), 25);
        assertTrue(
                at(plan, 5).accents().contains(new Section.Hit(5.0, "impact")),
                at(plan, 5).toString());
        Section drop = at(plan, 14);
        assertEquals(14.0, drop.start(), 1e-9);
        assertEquals("drop", drop.hit().kind());
        assertEquals(1.0, drop.intensity());
        assertEquals("peak", drop.label());
        assertTrue(
                drop.instruments().containsKey("beats") && drop.instruments().containsKey("bass"),
                drop.instruments().toString());
        // Both cuts stay section starts (each more than 1.5 s from 14 s); every section holds whole bars.
        assertTrue(plan.sections().stream().anyMatch(s -> Math.abs(s.start() - 10) < 1e-9));
        assertTrue(plan.sections().stream().anyMatch(s -> Math.abs(s.start() - 20) < 1e-9));
        plan.sections().forEach(s -> assertTrue(Math.abs(s.residual()) < 0.001, s.toString()));
        assertEquals(List.of(new EditorMarker(5.0, Kind.HIT), new EditorMarker(14.0, Kind.DROP)), plan.markers());
    }

    @Test
    void aMarkerNearACutTakesItsPlaceAndTheCutBecomesAnAccent() {
        Plan plan = ARRANGE.apply(planned(), List.of(new EditorMarker(11.0, Kind.SWELL)), 25);
        assertTrue(
                plan.sections().stream().noneMatch(s -> Math.abs(s.start() - 10) < 1e-9), "the cut at 10 s gave way");
        Section swell = at(plan, 11);
        assertEquals(11.0, swell.start(), 1e-9);
        assertEquals("impact", swell.hit().kind());
        Section before = at(plan, 10.5);
        assertTrue(
                before.accents().stream().anyMatch(h -> Math.abs(h.time() - 10) < 1e-9),
                "the cut is struck inside: " + before);
        assertNotNull(before.instruments().get("fx"), "the section before plays the riser into the swell");
    }

    @Test
    void stopAndStartRestBetweenThemAndResumeBringsTheMutedMusicBack() {
        Plan plan = ARRANGE.apply(
                planned(),
                List.of(
                        new EditorMarker(4.0, Kind.STOP),
                        new EditorMarker(6.0, Kind.START),
                        new EditorMarker(22.0, Kind.MUTE_UNTIL),
                        new EditorMarker(25.0, Kind.RESUME)),
                25);
        Section rest = at(plan, 5);
        assertEquals(4.0, rest.start(), 1e-9);
        assertEquals(6.0, rest.end(), 1e-9);
        assertTrue(rest.instruments().isEmpty(), "silent");
        assertEquals("crash", rest.hit().kind(), "the music ends with a strike on the stop");
        assertEquals("impact", at(plan, 6).hit().kind());
        Section muted = at(plan, 23);
        assertTrue(muted.instruments().isEmpty());
        Section resumed = at(plan, 25);
        Section before = at(plan, 21);
        assertEquals(before.instruments(), resumed.instruments(), "the muted music returns as it was");
        assertEquals(before.progression(), resumed.progression());
        assertEquals("crash", resumed.hit().kind());
    }

    @Test
    void aStartWithNoStopRestsFromTheFirstFrame() {
        Plan plan = ARRANGE.apply(planned(), List.of(new EditorMarker(3.0, Kind.START)), 25);
        assertTrue(plan.sections().getFirst().instruments().isEmpty());
        assertEquals(null, plan.sections().getFirst().hit());
        assertEquals(3.0, plan.sections().get(1).start(), 1e-9);
    }

    @Test
    void markersThatCannotBeHonouredAreRefusedByName() {
        refused(
                List.of(new EditorMarker(4.0, Kind.STOP), new EditorMarker(4.4, Kind.START)),
                "markers[1].time",
                "shortest rest");
        refused(
                List.of(
                        new EditorMarker(4.0, Kind.STOP),
                        new EditorMarker(5.0, Kind.HIT),
                        new EditorMarker(7.0, Kind.START)),
                "markers[1].time",
                "falls in the rest");
        refused(
                List.of(new EditorMarker(4.0, Kind.STOP), new EditorMarker(7.0, Kind.RESUME)),
                "markers[1].kind",
                "ends with a start");
        refused(
                List.of(new EditorMarker(4.0, Kind.HIT), new EditorMarker(7.0, Kind.START)),
                "markers[0].time",
                "rest from 0.0");
        refused(
                List.of(new EditorMarker(12.0, Kind.DROP), new EditorMarker(12.5, Kind.SWELL)),
                "markers[1].time",
                "apart");
        refused(List.of(new EditorMarker(29.5, Kind.DROP)), "markers[0].time", "to the end");
        refused(List.of(new EditorMarker(31, Kind.HIT)), "markers[0].time", "outside the video");
        refused(
                List.of(new EditorMarker(3, Kind.STOP), new EditorMarker(9, Kind.MUTE_UNTIL)),
                "markers[1].kind",
                "already rests");
    }

    private static void refused(List<EditorMarker> markers, String field, String says) {
        Unprocessable e = assertThrows(Unprocessable.class, () -> ARRANGE.apply(planned(), markers, 25));
        assertEquals(field, e.field(), e.getMessage());
        if (says != null) {
            assertTrue(e.getMessage().contains(says), e.getMessage());
        }
    }
}
