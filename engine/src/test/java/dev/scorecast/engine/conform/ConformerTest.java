package dev.scorecast.engine.conform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.conform.ShotMatcher.Match;
import dev.scorecast.engine.conform.ShotMatcher.Shot;
import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.music.Composer;
import dev.scorecast.engine.music.Note;
import dev.scorecast.engine.music.Part;
import dev.scorecast.engine.music.Score;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.PlanJson;
import dev.scorecast.engine.plan.PlanValidator;
import dev.scorecast.engine.plan.Section;
import dev.scorecast.engine.style.GenreCatalog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The conformed plan and its score, without media (issue 27): the music of a kept shot is the old
 * score's, note for note, moved with the shot; new music is written in whole bars; the plan is a
 * valid plan that survives JSON; the report names every span. ConformTest (server) measures the
 * rendered audio of real re-cuts.
 */
class ConformerTest {
    static final GenreCatalog GENRES = GenreCatalog.builtIn();
    static final List<String> GROUPS = List.of("beats", "bass", "harmony", "pads", "tops", "melody", "fx");

    /** Four sections of 6 s at 120 bpm (3 bars each), a cut at every section start and one at 9 s inside the second. */
    static Plan oldPlan() {
        List<Section> sections = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Map<String, Section.Instrument> instruments = new LinkedHashMap<>();
            for (String g : GROUPS) {
                instruments.put(
                        g, new Section.Instrument("pop", g.equals("beats") ? 0 : 4, null, 0, 0, "pop/" + g + "/2"));
            }
            List<Section.Hit> accents = i == 1 ? List.of(new Section.Hit(9, "crash")) : List.of();
            sections.add(new Section(
                    i,
                    6 * i,
                    6 * i + 6,
                    i == 3 ? "outro" : "build",
                    120,
                    "4/4",
                    3,
                    0,
                    "C",
                    "major",
                    0.6,
                    List.of("I", "V", "vi", "IV"),
                    instruments,
                    i == 0 ? null : new Section.Hit(6 * i, "crash"),
                    null,
                    null,
                    accents));
        }
        return PlanValidator.validate(
                new Plan(1, "plan_old", 42, "pop", 24, null, Plan.Master.DEFAULT, sections), 24, GENRES);
    }

    static final List<Shot> OLD_SHOTS = ShotMatcher.shots(List.of(6.0, 9.0, 12.0, 18.0), 24);

    @Test
    void aRemovedShotKeepsTheMusicOfTheOthersNoteForNote() {
        Plan old = oldPlan();
        // The re-cut drops the shot from 12 to 18 s: the last shot now starts at 12.
        List<Shot> shots = ShotMatcher.shots(List.of(6.0, 9.0, 12.0), 18);
        List<Match> matches = List.of(
                new Match(shots.get(0), OLD_SHOTS.get(0), 0, 0),
                new Match(shots.get(1), OLD_SHOTS.get(1), 0, 0),
                new Match(shots.get(2), OLD_SHOTS.get(2), 0, 0),
                new Match(shots.get(3), OLD_SHOTS.get(4), -6, 0));
        var conformed = Conformer.conform(old, OLD_SHOTS, matches, List.of(6.0, 9.0, 12.0), 18);
        Plan plan = PlanValidator.validate(PlanJson.parse(PlanJson.write(conformed.plan())), 18, GENRES);
        assertEquals(
                List.of("kept", "kept", "kept", "kept", "removed"),
                conformed.spans().stream().map(Conformer.ConformSpan::kind).toList());
        assertTrue(plan.sections().stream().allMatch(s -> s.origin() != null), plan.sections()::toString);
        assertEquals(18.0, plan.sections().getLast().origin().sourceStart(), 1e-9);
        Score before = new Composer().compose(old);
        Score after = ConformedScore.compose(plan, List.of());
        for (String group : List.of("bass", "harmony", "melody")) {
            // Away from the join at 12 s, every note under the kept shots is the old one, moved with its shot.
            assertEquals(notes(before, group, 0, 11.7, 0), notes(after, group, 0, 11.7, 0), group);
            assertEquals(notes(before, group, 18.3, 24, -6), notes(after, group, 12.3, 18, 0), group);
        }
        assertTrue(after.accents().stream().anyMatch(a -> Math.abs(a.time() - 12) < 1e-9), after.accents()::toString);
    }

    @Test
    void aNewShotGetsWholeBarsInTheSameKeyAndTheEndingStaysOnTheLastFrame() {
        Plan old = oldPlan();
        // 2.5 s of new pictures inserted at 12 s, and the last shot trimmed at its end by 2 s.
        List<Shot> shots = ShotMatcher.shots(List.of(6.0, 9.0, 12.0, 14.5, 20.5), 24.5);
        List<Match> matches = List.of(
                new Match(shots.get(0), OLD_SHOTS.get(0), 0, 0),
                new Match(shots.get(1), OLD_SHOTS.get(1), 0, 0),
                new Match(shots.get(2), OLD_SHOTS.get(2), 0, 0),
                new Match(shots.get(3), null, 0, 1),
                new Match(shots.get(4), OLD_SHOTS.get(3), 2.5, 0),
                new Match(shots.get(5), OLD_SHOTS.get(4), 2.5, 0));
        var conformed = Conformer.conform(old, OLD_SHOTS, matches, List.of(6.0, 9.0, 12.0, 14.5, 20.5), 24.5);
        Plan plan = PlanValidator.validate(conformed.plan(), 24.5, GENRES);
        Section inserted = plan.sections().stream()
                .filter(s -> Math.abs(s.start() - 12) < 1e-9)
                .findFirst()
                .orElseThrow();
        assertNull(inserted.origin());
        assertEquals("C", inserted.key());
        assertEquals(inserted.end() - inserted.start(), inserted.barsSeconds(), 1e-3);
        assertNotNull(inserted.hit());
        // The last shot (old 18-22 s at 20.5-24.5) does not end where the old music did: its last bar
        // (from the old bar line at 20 s, now 22.5) becomes a new closing section; two bars would take the
        // whole shot.
        Section last = plan.sections().getLast();
        assertNull(last.origin());
        assertEquals(22.5, last.start(), 1e-9);
        assertEquals(24.5, last.end(), 1e-9);
        assertEquals(1, last.bars(), last::toString);
        assertEquals(
                List.of("kept", "kept", "kept", "new", "kept", "trimmed", "removed"),
                conformed.spans().stream().map(Conformer.ConformSpan::kind).toList());
    }

    @Test
    void aRiserAcrossAKeptJoinKeepsItsStartAndANewImpactItsOwnSound() {
        Plan old = oldPlan();
        // The fourth shot (old 12-18 s) loses 3 s at its head: it now plays old 15-18 from 12 s. Pop's riser into
        // the old section at 18 s sounds from 14.6 to 17.8 s, across the kept music's entry at old 15 s.
        Plan plan = fourthShotTrimmedAtItsHead(old, 3);
        Part before = part(new Composer().compose(old), "fx");
        Part after = part(ConformedScore.compose(plan, List.of()), "fx");
        Note oldRiser = before.notes().stream()
                .filter(n -> n.pitch() == Composer.RISER_PITCH && n.start() < 15 && n.end() > 15.05)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no riser across old 15 s: " + before.notes()));
        // The riser keeps its old start (moved with the shot), so the kept music swells as it did; it is not struck
        // again at the join, where it would run behind the old render.
        List<Note> risers = after.notes().stream()
                .filter(n -> n.pitch() == Composer.RISER_PITCH && n.start() < 15 && n.end() > 12)
                .toList();
        assertEquals(
                1,
                risers.size(),
                () -> "old " + before.notes() + "\nnew " + after.notes() + "\n"
                        + plan.sections().stream()
                                .map(x -> x.start() + "-" + x.end() + " " + x.origin())
                                .toList());
        assertEquals(oldRiser.start() - 3, risers.get(0).start(), 1e-6);
        assertEquals(oldRiser.end() - 3, risers.get(0).end(), 1e-6);
        assertEquals(
                programAt(before, oldRiser.start()),
                programAt(after, risers.get(0).start()));
        // The new cut at 12 s is struck once, by the new composition's impact, on the impact's own sound (not on
        // the kept stretch's riser program).
        List<Note> onCut = after.notes().stream()
                .filter(n -> Math.abs(n.start() - 12) < 1e-3)
                .toList();
        assertEquals(1, onCut.size(), onCut::toString);
        assertNotEquals(Composer.RISER_PITCH, onCut.get(0).pitch());
        Note oldImpact = before.notes().stream()
                .filter(n -> n.pitch() != Composer.RISER_PITCH)
                .findFirst()
                .orElseThrow();
        assertEquals(programAt(before, oldImpact.start()), programAt(after, 12));
        // And let go soon: its boom would ring for seconds over the kept music's opening.
        assertTrue(oldImpact.duration() > 1, oldImpact::toString);
        assertEquals(ConformedScore.IMPACT_INSIDE_KEPT_SECONDS, onCut.get(0).duration(), 1e-9);
    }

    @Test
    void anImpactRingingAcrossAKeptJoinIsNotStruckAgain() {
        Plan old = oldPlan();
        // The fourth shot (old 12-18 s) loses 1 s at its head: it now plays old 13-18 from 12 s, while the old impact
        // struck at 12 s (1.5 s long) still rings at old 13 s. The new cut at 12 s is struck by the new composition's
        // impact; the old one is not struck again on top of it.
        Plan plan = fourthShotTrimmedAtItsHead(old, 1);
        Part before = part(new Composer().compose(old), "fx");
        assertTrue(
                before.notes().stream()
                        .anyMatch(n -> n.pitch() != Composer.RISER_PITCH && n.start() < 13 && n.end() > 13.05),
                before.notes()::toString);
        Part after = part(ConformedScore.compose(plan, List.of()), "fx");
        List<Note> onCut = after.notes().stream()
                .filter(n -> Math.abs(n.start() - 12) < 1e-3)
                .toList();
        assertEquals(1, onCut.size(), onCut::toString);
    }

    private static Part part(Score score, String group) {
        return score.parts().stream()
                .filter(p -> p.group().wire().equals(group))
                .findFirst()
                .orElseThrow();
    }

    /** The program a part strikes a note on at {@code time}: the last change at or before it. */
    private static int programAt(Part part, double time) {
        int program = part.program();
        for (Part.ProgramChange c : part.programChanges()) {
            if (c.time() <= time + 1e-9) {
                program = c.program();
            }
        }
        return program;
    }

    @Test
    void aShotTrimmedMidBeatIsBridgedOnTheBeatsNeverMidNote() {
        Plan old = oldPlan();
        // The second shot (old 6-9 s) loses 0.1 s at its tail: the third (old 9-12) now starts at 8.9 s,
        // 0.4 s after the outgoing music's last beat (8.5) and on a beat of the incoming (old 9).
        List<Shot> shots = ShotMatcher.shots(List.of(6.0, 8.9, 11.9, 17.9), 23.9);
        List<Match> matches = List.of(
                new Match(shots.get(0), OLD_SHOTS.get(0), 0, 0),
                new Match(shots.get(1), OLD_SHOTS.get(1), 0, 0),
                new Match(shots.get(2), OLD_SHOTS.get(2), -0.1, 0),
                new Match(shots.get(3), OLD_SHOTS.get(3), -0.1, 0),
                new Match(shots.get(4), OLD_SHOTS.get(4), -0.1, 0));
        var conformed = Conformer.conform(old, OLD_SHOTS, matches, List.of(6.0, 8.9, 11.9, 17.9), 23.9);
        Plan plan = PlanValidator.validate(PlanJson.parse(PlanJson.write(conformed.plan())), 23.9, GENRES);
        List<ConformedScore.Bridge> bridges = ConformedScore.bridges(plan);
        ConformedScore.Bridge bridge = bridges.stream()
                .filter(b -> Math.abs(b.cut() - 8.9) < 1e-9)
                .findFirst()
                .orElseThrow();
        // The outgoing music stops on its beat at 8.5 s, the incoming one comes in on its beat at the cut:
        // between them one transition beat of 0.4 s (a ramp from 120 to 150 bpm), a fill into the strike.
        assertEquals(8.5, bridge.from(), 1e-9, bridges::toString);
        assertEquals(8.9, bridge.to(), 1e-9, bridges::toString);
        assertEquals(1, bridge.beats());
        assertEquals(150, bridge.tempo(), 1e-6);
        // Every other join (kept music after kept music on both beats) needs no transition.
        assertTrue(
                bridges.stream().filter(b -> b != bridge).allMatch(ConformedScore.Bridge::onTheBeat),
                bridges::toString);
        Score before = new Composer().compose(old);
        Score after = ConformedScore.compose(plan, List.of());
        for (Part part : after.parts()) {
            for (Note n : part.notes()) {
                // Nothing sounds on over the outgoing music's last beat: what sounded there was let go on it.
                assertTrue(
                        n.start() >= bridge.from() - 1e-6 || n.end() <= bridge.from() + 1e-6,
                        () -> part.group() + " " + n);
                // Inside the transition only the fill (drums, up to the quiet moment before the cut) and the strike on
                // the cut.
                if (n.start() > bridge.from() - 1e-6 && n.start() < bridge.to() - 1e-6) {
                    boolean fill =
                            part.drums() && n.pitch() == ConformedScore.Bridge.SNARE && n.start() < bridge.cut() - 0.2;
                    boolean strike = Math.abs(n.start() - bridge.cut()) < 1e-3;
                    assertTrue(fill || strike, () -> part.group() + " " + n + " inside " + bridge);
                }
            }
        }
        assertTrue(notes(after, "beats", bridge.from(), bridge.cut(), 0).stream()
                .anyMatch(n -> n.pitch() == ConformedScore.Bridge.SNARE));
        for (String group : List.of("bass", "harmony", "melody")) {
            // Away from the transition every onset is the old one, moved with its shot.
            assertEquals(onsets(before, group, 0, 8.5, 0), onsets(after, group, 0, 8.5, 0), group);
            assertEquals(onsets(before, group, 9.0, 12.0, -0.1), onsets(after, group, 8.9, 11.9, 0), group);
        }
    }

    @Test
    void aTransitionTooShortForABeatAt240BpmTakesABeatMoreFromTheLongerShot() {
        Plan old = oldPlan();
        // The second shot loses 0.4 s at its tail: the cut at 8.6 s is 0.1 s after the outgoing music's beat
        // (one beat there would be 600 bpm) and on a beat of the incoming music, whose shot (to 11.6 s) has
        // more music left than the outgoing one's (from 6 s): the transition takes the incoming music's
        // first beat too, 8.5 to 9.1 s, one beat at 100 bpm.
        List<Shot> shots = ShotMatcher.shots(List.of(6.0, 8.6, 11.6, 17.6), 23.6);
        List<Match> matches = List.of(
                new Match(shots.get(0), OLD_SHOTS.get(0), 0, 0),
                new Match(shots.get(1), OLD_SHOTS.get(1), 0, 0),
                new Match(shots.get(2), OLD_SHOTS.get(2), -0.4, 0),
                new Match(shots.get(3), OLD_SHOTS.get(3), -0.4, 0),
                new Match(shots.get(4), OLD_SHOTS.get(4), -0.4, 0));
        Plan plan = Conformer.conform(old, OLD_SHOTS, matches, List.of(6.0, 8.6, 11.6, 17.6), 23.6)
                .plan();
        ConformedScore.Bridge bridge = ConformedScore.bridges(plan).stream()
                .filter(b -> Math.abs(b.cut() - 8.6) < 1e-9)
                .findFirst()
                .orElseThrow();
        assertEquals(8.5, bridge.from(), 1e-9, bridge::toString);
        assertEquals(9.1, bridge.to(), 1e-9, bridge::toString);
        assertEquals(1, bridge.beats());
        assertEquals(100, bridge.tempo(), 1e-6);
    }

    @Test
    void keptMusicAfterNewMusicComesInOnItsOwnBeatBeforeTheCut() {
        Plan old = oldPlan();
        // 2.5 s of new pictures inserted 1.35 s into the third shot (old 10.35 s, 0.35 s past a beat).
        List<Shot> shots = ShotMatcher.shots(List.of(6.0, 9.0, 10.35, 12.85, 14.5, 20.5), 26.5);
        List<Match> matches = List.of(
                new Match(shots.get(0), OLD_SHOTS.get(0), 0, 0),
                new Match(shots.get(1), OLD_SHOTS.get(1), 0, 0),
                new Match(shots.get(2), OLD_SHOTS.get(2), 0, 0),
                new Match(shots.get(3), null, 0, 1),
                new Match(shots.get(4), OLD_SHOTS.get(2), 2.5, 0),
                new Match(shots.get(5), OLD_SHOTS.get(3), 2.5, 0),
                new Match(shots.get(6), OLD_SHOTS.get(4), 2.5, 0));
        Plan plan = PlanValidator.validate(
                Conformer.conform(old, OLD_SHOTS, matches, List.of(6.0, 9.0, 10.35, 12.85, 14.5, 20.5), 26.5)
                        .plan(),
                26.5,
                GENRES);
        // The new music ends, and the kept music (old 10 s) starts, on that music's beat at 12.5 s, 0.35 s
        // before the cut, which is struck inside the kept music; so the kept shot loses none of its music.
        Section fresh = plan.sections().stream()
                .filter(s -> s.origin() == null && s.start() > 10)
                .findFirst()
                .orElseThrow();
        assertEquals(10.35, fresh.start(), 1e-9);
        assertEquals(12.5, fresh.end(), 1e-9, plan.sections()::toString);
        assertEquals(fresh.end() - fresh.start(), fresh.barsSeconds(), 1e-3);
        Section kept = plan.sections().stream()
                .filter(s -> Math.abs(s.start() - 12.5) < 1e-9)
                .findFirst()
                .orElseThrow();
        assertEquals(10.0, kept.origin().sourceStart(), 1e-9);
        assertTrue(kept.accents().stream().anyMatch(a -> Math.abs(a.time() - 12.85) < 1e-9), kept::toString);
        ConformedScore.Bridge join = ConformedScore.bridges(plan).stream()
                .filter(b -> Math.abs(b.cut() - 12.5) < 1e-9)
                .findFirst()
                .orElseThrow();
        assertTrue(join.onTheBeat(), join::toString);
        // The kept shot's music from its cut on is the old music, moved by its offset.
        Score before = new Composer().compose(old);
        Score after = ConformedScore.compose(plan, List.of());
        for (String group : List.of("bass", "harmony", "melody")) {
            assertEquals(onsets(before, group, 10.35, 11.8, 2.5), onsets(after, group, 12.85, 14.3, 0), group);
        }
    }

    @Test
    void aCutMovedByLessThanAFrameKeepsTheOldStrikeAndTheOldMusic() {
        Plan old = oldPlan();
        // The same cut at another frame rate: the old cut at 9 s lands on the new video's frame at 9.013 s,
        // and the matcher keeps the shots either side on one offset (ShotMatcherFootageTest).
        List<Shot> shots = ShotMatcher.shots(List.of(6.0, 9.013, 12.0, 18.0), 24);
        List<Match> matches = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            matches.add(new Match(shots.get(i), OLD_SHOTS.get(i), 0, 0.001, 0.95, 0.04));
        }
        List<Double> cuts = List.of(6.0, 9.013, 12.0, 18.0);
        var conformed = Conformer.conform(old, OLD_SHOTS, matches, cuts, 24);
        assertEquals(
                List.of("kept", "kept", "kept", "kept", "kept"),
                conformed.spans().stream().map(Conformer.ConformSpan::kind).toList());
        Plan plan = PlanValidator.validate(PlanJson.parse(PlanJson.write(conformed.plan())), 24, GENRES);
        List<Double> accents = plan.sections().stream()
                .flatMap(s -> s.accents().stream())
                .map(Section.Hit::time)
                .filter(t -> t > 8.5 && t < 9.5)
                .toList();
        // The old strike (9 s, 13 ms from the cut, within a frame) is the cut's accent; no second one.
        assertEquals(List.of(9.0), accents);
        Score before = new Composer().compose(old);
        Score after = ConformedScore.compose(plan, List.of());
        for (String group : GROUPS) {
            assertEquals(onsets(before, group, 0, 24, 0), onsets(after, group, 0, 24, 0), group);
        }
    }

    @Test
    void theMelodyRestsUnderSpeechThatMovedWithItsShot() {
        Plan old = oldPlan();
        // The old execution spoke over 13-16 s (a voiceover line or the shot's own dialogue): its melody rested there.
        List<Span> oldSpeech = List.of(new Span(13, 16));
        Score before = new Composer().compose(old, oldSpeech);
        // The re-cut drops the shot from 6 to 9 s: the speech moves with its shot to 10-13 s.
        List<Shot> shots = ShotMatcher.shots(List.of(6.0, 9.0, 15.0), 21);
        List<Match> matches = List.of(
                new Match(shots.get(0), OLD_SHOTS.get(0), 0, 0),
                new Match(shots.get(1), OLD_SHOTS.get(2), -3, 0),
                new Match(shots.get(2), OLD_SHOTS.get(3), -3, 0),
                new Match(shots.get(3), OLD_SHOTS.get(4), -3, 0));
        Plan plan = Conformer.conform(old, OLD_SHOTS, matches, List.of(6.0, 9.0, 15.0), 21)
                .plan();
        Score after = ConformedScore.compose(plan, List.of(new Span(10, 13)));
        // Under and around the speech, the kept melody is the one that rested under it, not one composed without it.
        assertEquals(notes(before, "melody", 12, 18, -3), notes(after, "melody", 9, 15, 0));
        assertNotEquals(
                notes(new Composer().compose(old, List.of()), "melody", 13, 16, 0),
                notes(before, "melody", 13, 16, 0),
                "the old melody made room for the speech");
    }

    private static List<String> onsets(Score score, String group, double from, double to, double shift) {
        return notes(score, group, from, to, shift).stream()
                .map(n -> n.start() + ":" + n.pitch())
                .toList();
    }

    @Test
    void aNoteHeldAcrossAnEntryPlaysFromItsOwnOnsetSilentUntilTheEntry() {
        Plan old = oldPlan();
        // The fourth shot (old 12-18 s) loses its first second: from the cut at 12 s the kept music is the old
        // music from 13 s, mid-bar, where the old chords struck at 12 s still sound.
        Plan plan = fourthShotTrimmedAtItsHead(old, 1);
        Score before = new Composer().compose(old);
        Score after = ConformedScore.compose(plan, List.of());
        int heldParts = 0;
        for (String group : List.of("bass", "harmony", "pads", "tops", "melody")) {
            List<Part> parts = after.parts().stream()
                    .filter(p -> p.group().wire().equals(group))
                    .toList();
            Part main = parts.getFirst();
            // What the old music held at 13 s: struck before it, sounding past it.
            List<Note> across = before.parts().stream()
                    .filter(p -> p.group().wire().equals(group))
                    .flatMap(p -> p.notes().stream())
                    .filter(n -> n.start() < 13 - 1e-9 && n.end() > 13.05)
                    .toList();
            if (across.isEmpty()) {
                assertEquals(1, parts.size(), group);
                continue;
            }
            heldParts++;
            assertEquals(2, parts.size(), () -> group + ": the held notes play on a part of their own");
            Part held = parts.get(1);
            // Each held note from its own onset, moved with the shot, never struck again at the entry.
            assertEquals(
                    across.stream()
                            .map(n -> Math.round((n.start() - 1) * 1e6) / 1e6)
                            .sorted()
                            .toList(),
                    held.notes().stream()
                            .map(n -> Math.round(n.start() * 1e6) / 1e6)
                            .sorted()
                            .toList(),
                    group);
            assertTrue(
                    main.notes().stream()
                            .noneMatch(n -> Math.abs(n.start() - 12) < 1e-6
                                    && across.stream().anyMatch(a -> a.pitch() == n.pitch())),
                    () -> group + " struck again at the entry: " + main.notes());
            // Silent (expression 0) from its first onset until the entry, then at the old expression.
            double first = held.notes().stream().mapToDouble(Note::start).min().orElseThrow();
            assertTrue(first < 12, group);
            assertEquals(0, expressionAt(held, first), group);
            assertEquals(0, expressionAt(held, 11.99), group);
            assertEquals(expressionAt(before, group, 13), expressionAt(held, 12), group);
        }
        assertTrue(heldParts > 0, "the old music held something at 13 s");
    }

    @Test
    void aDownbeatPlayedAheadOfTheIncomingBeatLineIsStillOnIt() {
        // The real trim's join: the outgoing music stops on its beat at 9.593 s, the cut at 9.8 s, the kept music
        // comes in on its beat line at 9.886 s, where its drummer played the kick 2 ms ahead.
        var bridge = new ConformedScore.Bridge(9.593, 9.8, 9.886, 1, 204.9);
        List<Note> notes = new ArrayList<>(List.of(
                new Note(9.8, 0.2, 36, 127), // the strike on the cut
                new Note(9.83, 0.1, 42, 80), // the kept music before its beat line: the transition's
                new Note(9.884, 0.14, 36, 105), // its downbeat, 2 ms ahead
                new Note(9.896, 0.14, 42, 84)));
        bridge.apply(notes, true, false, false);
        assertEquals(List.of(9.8, 9.884, 9.896), notes.stream().map(Note::start).toList());
    }

    /** The old cut with its fourth shot (old 12-18 s) {@code seconds} shorter at its head, conformed and through JSON. */
    private static Plan fourthShotTrimmedAtItsHead(Plan old, double seconds) {
        List<Double> cuts = List.of(6.0, 9.0, 12.0, 18 - seconds);
        List<Shot> shots = ShotMatcher.shots(cuts, 24 - seconds);
        List<Match> matches = List.of(
                new Match(shots.get(0), OLD_SHOTS.get(0), 0, 0),
                new Match(shots.get(1), OLD_SHOTS.get(1), 0, 0),
                new Match(shots.get(2), OLD_SHOTS.get(2), 0, 0),
                new Match(shots.get(3), OLD_SHOTS.get(3), -seconds, 0),
                new Match(shots.get(4), OLD_SHOTS.get(4), -seconds, 0));
        var conformed = Conformer.conform(old, OLD_SHOTS, matches, cuts, 24 - seconds);
        return PlanValidator.validate(PlanJson.parse(PlanJson.write(conformed.plan())), 24 - seconds, GENRES);
    }

    private static int expressionAt(Part part, double time) {
        int value = 127;
        for (Part.Control c : part.controls()) {
            if (c.controller() == Part.Control.EXPRESSION && c.time() <= time + 1e-9) {
                value = c.value();
            }
        }
        return value;
    }

    private static int expressionAt(Score score, String group, double time) {
        return expressionAt(
                score.parts().stream()
                        .filter(p -> p.group().wire().equals(group))
                        .findFirst()
                        .orElseThrow(),
                time);
    }

    private static List<Note> notes(Score score, String group, double from, double to, double shift) {
        Part part = score.parts().stream()
                .filter(p -> p.group().wire().equals(group))
                .findFirst()
                .orElseThrow();
        return part.notes().stream()
                .filter(n -> n.start() >= from && n.start() < to)
                .map(n -> new Note(
                        Math.round((n.start() + shift) * 1e6) / 1e6,
                        Math.round(n.duration() * 1e6) / 1e6,
                        n.pitch(),
                        n.velocity()))
                .toList();
    }
}
