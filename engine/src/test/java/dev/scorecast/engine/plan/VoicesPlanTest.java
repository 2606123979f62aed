package dev.scorecast.engine.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.Unprocessable;
import dev.scorecast.engine.plan.Section.VoiceoverLine;
import dev.scorecast.engine.style.GenreCatalog;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** with_vocals writes lyrics into the plan; with_voiceover spreads a script over calm sections. */
class VoicesPlanTest {
    static final Planner PLANNER = new Planner(GenreCatalog.builtIn());
    /** Calm, loud, calm: the voiceover belongs in the first and last thirds. */
    static final Analysis CALM_LOUD_CALM =
            Analyses.of(45, 25, Analyses.cuts(15, 30), t -> t >= 15 && t < 30 ? 0.9 : 0.15, 0.6, 0.5, "pop", 110);

    private static GenerationOptions options(boolean vocals, String script) {
        return GenerationOptions.DEFAULT
                .withVocals(vocals)
                .withVoiceover(script != null)
                .withGenre("pop")
                .withSeed(9L)
                .withVoiceoverScript(script);
    }

    @Test
    void vocalsGiveEverySingingSectionItsOwnLyrics() {
        Plan plan = PLANNER.plan(CALM_LOUD_CALM, options(true, null));
        List<String> lyrics = new ArrayList<>();
        for (Section s : plan.sections()) {
            if (s.instruments().get("vocals") != null) {
                assertTrue(s.lyrics() != null && !s.lyrics().isBlank(), "section " + s.index() + " sings words");
                lyrics.add(s.lyrics());
            }
        }
        assertFalse(lyrics.isEmpty(), "some section sings");
        assertEquals(
                lyrics.size(), lyrics.stream().distinct().count(), "no two sections sing the same words: " + lyrics);
        assertTrue(plan.options().vocals());
        assertEquals(plan, PLANNER.plan(CALM_LOUD_CALM, options(true, null)), "deterministic for a seed");
    }

    @Test
    void aCalmVideoStillSingsInItsLoudestSection() {
        var calm = Analyses.of(
                30, 25, Analyses.cuts(10, 20), t -> t < 10 ? 0.05 : t < 20 ? 0.12 : 0.08, 0.6, 0.2, "pop", 100);
        Plan plan = PLANNER.plan(calm, options(true, null));
        long singing = plan.sections().stream().filter(s -> s.lyrics() != null).count();
        assertTrue(singing >= 1, "at least one section sings: " + plan.sections());
    }

    @Test
    void withoutVocalsNothingIsSung() {
        Plan plan = PLANNER.plan(CALM_LOUD_CALM, options(false, null));
        assertTrue(plan.sections().stream()
                .allMatch(s -> s.lyrics() == null && s.instruments().get("vocals") == null));
    }

    @Test
    void theScriptIsSpokenInOrderInCalmSectionsWithoutOverlap() {
        String script = "The valley wakes. The river runs past the mill. Night falls on the hills.";
        Plan plan = PLANNER.plan(CALM_LOUD_CALM, options(false, script));
        List<VoiceoverLine> lines = new ArrayList<>();
        for (Section s : plan.sections()) {
            for (VoiceoverLine line : s.voiceover()) {
                assertTrue(line.start() >= s.start() && line.start() < s.end(), "inside its section: " + line);
                assertTrue(
                        s.intensity() < 0.5, "spoken in a calm section, not in " + s.label() + " at " + s.intensity());
                lines.add(line);
            }
        }
        assertEquals(
                List.of("The valley wakes.", "The river runs past the mill.", "Night falls on the hills."),
                lines.stream().map(VoiceoverLine::text).toList());
        for (int i = 1; i < lines.size(); i++) {
            double previousEnd =
                    lines.get(i - 1).start() + lines.get(i - 1).text().split(" ").length / (160 / 60.0);
            assertTrue(
                    lines.get(i).start() > previousEnd,
                    "line " + i + " starts after the one before has been said: " + lines);
        }
        PlanValidator.validate(plan, 45, GenreCatalog.builtIn());
    }

    @Test
    void noSentenceIsSpokenOverAHit() {
        // Cuts at 4 and 5 s come too fast for a section of their own: they are struck inside one.
        var busy = Analyses.of(30, 25, Analyses.cuts(4, 5, 15), t -> 0.15, 0.6, 0.5, "pop", 110);
        Plan plan = PLANNER.plan(busy, options(false, "One two three four five six. Seven eight nine ten."));
        List<Double> hits = new ArrayList<>();
        plan.sections().forEach(s -> {
            hits.add(s.start());
            s.accents().forEach(a -> hits.add(a.time()));
        });
        for (Section s : plan.sections()) {
            for (VoiceoverLine line : s.voiceover()) {
                double end = line.start() + line.text().split(" ").length / (160 / 60.0) + 0.3;
                for (double hit : hits) {
                    assertFalse(
                            hit > line.start() && hit < end,
                            "hit at " + hit + " under \"" + line.text() + "\" from " + line.start());
                }
            }
        }
    }

    @Test
    void aCutUnderTheVideosOwnWordsLosesToOneBetweenThem() {
        // Two cuts 0.3 s apart that both fit a phrase: without speech the planner takes 15.0 s; with a
        // word running over 15.0 s (the video's own dialogue) nothing strikes there, and 15.3 s, between
        // the words, is struck instead (as a boundary or an accent, as the phrase search decides).
        var base = Analyses.of(45, 25, Analyses.cuts(15.0, 15.3, 30), t -> 0.4, 0.6, 0.5, "house", 124);
        var dialogue = GenerationOptions.DEFAULT
                .withGenre("house")
                .withOriginalAudioVoiceover(true)
                .withSeed(1L);
        List<Double> plain = PLANNER.plan(base, dialogue).sections().stream()
                .map(Section::start)
                .toList();
        assertTrue(plain.contains(15.0) && !plain.contains(15.3), "without speech: " + plain);
        var withSpeech = new Analysis(
                base.version(),
                base.video(),
                base.cuts(),
                base.scenes(),
                base.energy(),
                new Analysis.AudioFacts(-20.0, -3.0, List.of(new Span(14.5, 15.2)), List.of(), 0),
                base.mood(),
                base.suggestions(),
                base.quality());
        List<Double> struck = new ArrayList<>();
        PLANNER.plan(withSpeech, dialogue).sections().forEach(s -> {
            struck.add(s.start());
            s.accents().forEach(a -> struck.add(a.time()));
        });
        assertTrue(struck.contains(15.3) && !struck.contains(15.0), "with a word over 15.0 s, hits at " + struck);
    }

    @Test
    void aVoiceoverWithNoWordsNamesBothWaysToGiveThem() {
        InvalidParameter e =
                assertThrows(InvalidParameter.class, () -> PLANNER.plan(CALM_LOUD_CALM, options(false, " ")));
        assertEquals("voiceover_script", e.field());
        assertTrue(
                e.getMessage().contains("voiceover_script") && e.getMessage().contains("sections[].voiceover"),
                e.getMessage());
    }

    @Test
    void aScriptLongerThanTheVideoIsRefused() {
        String script = "word ".repeat(400) + ".";
        Unprocessable e = assertThrows(Unprocessable.class, () -> PLANNER.plan(CALM_LOUD_CALM, options(false, script)));
        assertEquals("voiceover_script", e.field());
    }

    @Test
    void aClientPlanWithAnUnusableVoiceIsRefusedByField() {
        Plan plan = PLANNER.plan(CALM_LOUD_CALM, options(false, "Hello there."));
        PlanOptions o = plan.options();
        Plan bad = new Plan(
                plan.version(),
                plan.id(),
                plan.seed(),
                plan.genre(),
                plan.duration(),
                new PlanOptions(
                        o.vocals(),
                        o.voiceover(),
                        o.instrument(),
                        o.originalAudio(),
                        o.originalAudioVoiceover(),
                        o.ducking(),
                        o.multitrack(),
                        "en us; rm -rf",
                        1000),
                plan.master(),
                plan.sections());
        InvalidParameter e =
                assertThrows(InvalidParameter.class, () -> PlanValidator.validate(bad, 45, GenreCatalog.builtIn()));
        List<String> fields = e.problems().stream().map(p -> p.field()).toList();
        assertTrue(fields.contains("options.voiceover_voice"), fields.toString());
        assertNotEquals(plan.options(), bad.options());
    }
}
