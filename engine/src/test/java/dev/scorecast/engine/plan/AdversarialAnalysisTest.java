package dev.scorecast.engine.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.analysis.Cut;
import dev.scorecast.engine.analysis.CutKind;
import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.style.GenreCatalog;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Analyses a hostile client could upload in variant B: what once kept the planner busy for hours
 * must now be refused by the validator or planned in well under a second, and a malformed field
 * must be a 400-kind refusal naming it, never an unchecked exception. The time bounds are guards
 * against quadratic work (each case took minutes to hours before), not benchmarks.
 */
class AdversarialAnalysisTest {
    private static final Planner PLANNER = new Planner(GenreCatalog.builtIn());
    private static final GenerationOptions UNDER_WORDS = GenerationOptions.DEFAULT
            .withGenre("house")
            .withOriginalAudio(true)
            .withOriginalAudioVoiceover(true)
            .withSeed(1L);

    @Test
    void cutsPiledAtOneInstantUnderThousandsOfSpeechSpansPlanQuickly() {
        double duration = 600;
        List<Cut> cuts = new ArrayList<>();
        for (int i = 0; i < AnalysisValidator.MAX_CUTS; i++) {
            cuts.add(Cut.hard(300.0, 9000, 0.5));
        }
        Analysis analysis =
                withSpeech(Analyses.of(duration, 30, cuts, t -> 0.5, 0.5, 0.5, "house", 124), speech(duration, 20_000));
        AnalysisValidator.validate(analysis, "analysis");
        Plan plan = planWithinCpu(analysis);
        assertFalse(plan.sections().isEmpty());
    }

    @Test
    void theMostCutsAtTheHighestFrameRatePlanQuickly() {
        double duration = 40;
        List<Cut> cuts = new ArrayList<>();
        for (int i = 1; i <= AnalysisValidator.MAX_CUTS; i++) {
            double t = i * duration / (AnalysisValidator.MAX_CUTS + 1);
            cuts.add(Cut.hard(t, i, (i * 7919 % 100) / 100.0));
        }
        Analysis analysis = withSpeech(
                Analyses.of(duration, 1000, cuts, t -> 0.5, 0.5, 0.5, "house", 124), speech(duration, 10_000));
        AnalysisValidator.validate(analysis, "analysis");
        Plan plan = planWithinCpu(analysis);
        assertEquals(40, plan.sections().getLast().end(), 0.05);
    }

    @Test
    void clearingCutsOfWordsKeepsItsMeaning() {
        // 10.0 is under words with a clear cut 0.5 s away: dropped. 20.0 is under words with none near: kept.
        var cuts = Analyses.cuts(10.0, 10.5, 20.0, 30.0);
        Analysis analysis =
                withSpeech(Analyses.flat(40, 0), List.of(new Span(9.8, 10.2), new Span(19, 21), new Span(21, 22)));
        var kept = Planner.clearOfWords(cuts, analysis).stream().map(Cut::time).toList();
        assertEquals(List.of(10.5, 20.0, 30.0), kept);
        // A cut exactly where two spans touch is between words, so the cut under words 0.5 s before it gives way to it.
        Analysis touching = withSpeech(Analyses.flat(40, 0), List.of(new Span(19, 21), new Span(21, 22)));
        assertEquals(
                List.of(21.0),
                Planner.clearOfWords(Analyses.cuts(20.5, 21.0), touching).stream()
                        .map(Cut::time)
                        .toList());
    }

    @Test
    void aCutWithoutKindIsRefusedByName() {
        var cuts = List.of(Cut.hard(2, 50, 0.5), new Cut(5, 125, null, 0.5, 5, 5));
        var e = assertThrows(
                InvalidParameter.class,
                () -> AnalysisValidator.validate(
                        Analyses.of(10, 25, cuts, t -> 0.5, 0.5, 0.5, "house", 124), "analysis"));
        assertEquals("analysis.cuts[1].kind", e.field());
    }

    @Test
    void oversizedOrUnorderedListsAreRefusedWithoutListingEveryItem() {
        List<Cut> tooMany = new ArrayList<>();
        for (int i = 0; i <= AnalysisValidator.MAX_CUTS; i++) {
            tooMany.add(Cut.hard(1, 25, 0.5));
        }
        var e = assertThrows(
                InvalidParameter.class,
                () -> AnalysisValidator.validate(
                        Analyses.of(10, 25, tooMany, t -> 0.5, 0.5, 0.5, "house", 124), "analysis"));
        assertEquals("analysis.cuts", e.field());

        Random random = new Random(3);
        List<Cut> shuffled = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            double t = random.nextDouble() * 9;
            shuffled.add(new Cut(t, 0, CutKind.CUT, 0.5, t, t));
        }
        var unordered = assertThrows(
                InvalidParameter.class,
                () -> AnalysisValidator.validate(
                        Analyses.of(10, 25, shuffled, t -> 0.5, 0.5, 0.5, "house", 124), "analysis"));
        assertTrue(
                unordered.problems().size() <= AnalysisValidator.MAX_PROBLEMS + 1,
                "problems: " + unordered.problems().size());
        assertTrue(unordered.field().startsWith("analysis.cuts["), unordered.field());
    }

    @Test
    void timesOutsideTheVideoAndNonFiniteNumbersAreRefused() {
        Analysis late = Analyses.of(10, 25, Analyses.cuts(2, 30), t -> 0.5, 0.5, 0.5, "house", 124);
        assertEquals(
                "analysis.cuts[1].time",
                assertThrows(InvalidParameter.class, () -> AnalysisValidator.validate(late, "analysis"))
                        .field());
        Analysis nan = Analyses.of(10, 25, List.of(), t -> Double.NaN, 0.5, 0.5, "house", 124);
        assertEquals(
                "analysis.energy.values[0]",
                assertThrows(InvalidParameter.class, () -> AnalysisValidator.validate(nan, "analysis"))
                        .field());
        Analysis overlapping = withSpeech(Analyses.flat(10, 0), List.of(new Span(1, 5), new Span(4, 6)));
        assertEquals(
                "analysis.audio.speech[1].start",
                assertThrows(InvalidParameter.class, () -> AnalysisValidator.validate(overlapping, "analysis"))
                        .field());
    }

    @Test
    void theAnalyserOwnAnalysesPass() {
        for (long seed = 0; seed < 20; seed++) {
            AnalysisValidator.validate(Analyses.random(seed, 30 + seed * 20, (int) seed * 5), "analysis");
        }
    }

    /** {@code count} speech spans of equal length filling the first half of each slot. */
    private static List<Span> speech(double duration, int count) {
        List<Span> spans = new ArrayList<>();
        double slot = duration / count;
        for (int i = 0; i < count; i++) {
            spans.add(new Span(i * slot, i * slot + slot / 2));
        }
        return spans;
    }

    private static Analysis withSpeech(Analysis a, List<Span> speech) {
        var audio = new Analysis.AudioFacts(-20.0, -3.0, speech, List.of(), 0.5);
        return new Analysis(
                a.version(),
                a.video(),
                a.cuts(),
                a.scenes(),
                a.energy(),
                audio,
                a.mood(),
                a.suggestions(),
                a.quality());
    }

    /**
     * Plans within 3 s of the planning thread's CPU time (not wall-clock time, which a loaded
     * machine stretches: this failed at load 30 on 2 cores), and within a minute of wall-clock
     * time, so a hang still fails rather than stalls the suite.
     */
    private static Plan planWithinCpu(Analysis analysis) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        return assertTimeoutPreemptively(Duration.ofMinutes(1), () -> {
            long before = threads.getCurrentThreadCpuTime();
            Plan plan = PLANNER.plan(analysis, UNDER_WORDS);
            long cpuMillis = (threads.getCurrentThreadCpuTime() - before) / 1_000_000;
            assertTrue(cpuMillis < 3000, "planning took " + cpuMillis + " ms of CPU");
            return plan;
        });
    }
}
