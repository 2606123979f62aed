package dev.scorecast.engine.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.error.InvalidParameter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 28, a hostile execution plan: spoken and sung text is capped relative to the video's length,
 * and the refusal names the field and says the cap. 200 lines of 2,000 characters on a short video
 * were accepted and ran an execution out of memory.
 */
class TextBudgetTest {
    private static Plan voiceover(int lines, int chars) {
        return PlanValidatorTest.edit(0, s -> {
            List<Section.VoiceoverLine> spoken = new ArrayList<>();
            for (int k = 0; k < lines; k++) {
                spoken.add(new Section.VoiceoverLine("word ".repeat(chars / 5), s.start() + 0.01 * k));
            }
            return s.withVoiceover(spoken);
        });
    }

    @Test
    void hoursOfSpeechOnAShortVideoAreRefusedWithTheCap() {
        // 45 s at 160 words per minute: 500 + 45 x 32 = 1,940 characters.
        InvalidParameter e = PlanValidatorTest.refused(voiceover(200, 2_000));
        var problem = PlanValidatorTest.problem(e, "sections[0].voiceover[0].text");
        assertTrue(
                problem.message()
                        .contains(
                                "the voiceover holds 400000 characters in all, more than the 1940 a 45.0 s video takes"
                                        + " at 160 words per minute (500 + 32 a second)"),
                problem.message());
        // Within it, lines are accepted.
        assertEquals(
                3,
                PlanValidator.validate(voiceover(3, 600), 45, PlanValidatorTest.GENRES)
                        .sections()
                        .getFirst()
                        .voiceover()
                        .size());
        // The field named is the line where the budget runs out.
        PlanValidatorTest.problem(PlanValidatorTest.refused(voiceover(4, 600)), "sections[0].voiceover[3].text");
    }

    @Test
    void lyricsPastTheirBudgetAreRefusedWithTheCap() {
        Plan plan = PlanValidatorTest.edit(1, s -> s.withVocals(s.instruments(), "la ".repeat(3_000)));
        var problem = PlanValidatorTest.problem(PlanValidatorTest.refused(plan), "sections[1].lyrics");
        assertTrue(
                problem.message()
                        .contains("the lyrics hold 9000 characters in all, more than the 2300 a 45.0 s video takes"
                                + " (500 + 40 a second)"),
                problem.message());
    }
}
