package dev.scorecast.engine.voice.speech;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.error.InvalidParameter;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpeechSpansTest {

    private static final double W = 0.1; // window seconds, round numbers for reading
    private static final SpeechRules PLAIN = new SpeechRules(0.5, 0.35, 0, 0, 0);

    @Test
    void hysteresisHoldsSpeechThroughADipAboveOff() {
        float[] p = {0.1f, 0.6f, 0.4f, 0.4f, 0.6f, 0.3f, 0.1f};
        assertEquals(List.of(new Span(0.1, 0.5)), spans(p, PLAIN));
    }

    @Test
    void startingNeedsOnAndStoppingNeedsBelowOff() {
        float[] p = {0.45f, 0.45f, 0.5f, 0.36f, 0.4f, 0.3f, 0.49f};
        assertEquals(List.of(new Span(0.2, 0.5)), spans(p, PLAIN));
    }

    @Test
    void shortPausesAreBridgedThenShortSpeechIsDropped() {
        // Speech 0.1-0.3, pause 0.1, speech 0.4-0.6, pause 0.3, blip 0.9-1.0.
        float[] p = {0, 1, 1, 0, 1, 1, 0, 0, 0, 1, 0};
        SpeechRules rules = new SpeechRules(0.5, 0.35, 0.15, 0.2, 0);
        assertEquals(List.of(new Span(0.1, 0.6)), spans(p, rules));
    }

    @Test
    void paddingGrowsSpansClipsAtTheEndsAndJoinsNeighbours() {
        float[] p = {1, 0, 0, 0, 1, 1, 0, 1, 1};
        SpeechRules rules = new SpeechRules(0.5, 0.35, 0, 0, 0.06);
        List<Span> spans = SpeechSpans.fromProbabilities(p, p.length, W, 0.85, rules);
        assertEquals(2, spans.size());
        assertSpan(0, 0.16, spans.get(0));
        assertSpan(0.34, 0.85, spans.get(1)); // 0.4-0.6 and 0.7-0.9 padded touch; the end is clipped to the duration
    }

    @Test
    void speechRunningToTheEndIsClosed() {
        assertEquals(List.of(new Span(0.2, 0.4)), spans(new float[] {0, 0, 1, 1}, PLAIN));
        assertEquals(List.of(), spans(new float[0], PLAIN));
    }

    @Test
    void countLimitsTheWindowsRead() {
        float[] p = {0, 1, 1, 1};
        assertEquals(List.of(new Span(0.1, 0.2)), SpeechSpans.fromProbabilities(p, 2, W, 0.2, PLAIN));
    }

    @Test
    void badRulesAndArguments() {
        assertThrows(InvalidParameter.class, () -> new SpeechRules(0, 0, 0, 0, 0));
        assertThrows(InvalidParameter.class, () -> new SpeechRules(0.5, 0.6, 0, 0, 0));
        assertThrows(InvalidParameter.class, () -> new SpeechRules(0.5, 0.3, -1, 0, 0));
        assertThrows(InvalidParameter.class, () -> new SpeechRules(0.5, 0.3, 0, Double.NaN, 0));
        assertThrows(InvalidParameter.class, () -> new SpeechRules(0.5, 0.3, 0, 0, -0.1));
        assertThrows(InvalidParameter.class, () -> SpeechSpans.fromProbabilities(new float[2], 3, W, 1, PLAIN));
        assertThrows(InvalidParameter.class, () -> SpeechSpans.fromProbabilities(new float[2], 2, 0, 1, PLAIN));
    }

    private static List<Span> spans(float[] p, SpeechRules rules) {
        return SpeechSpans.fromProbabilities(p, p.length, W, p.length * W, rules).stream()
                .map(s -> new Span(round(s.start()), round(s.end())))
                .toList();
    }

    private static double round(double seconds) {
        return Math.round(seconds * 1000) / 1000.0;
    }

    private static void assertSpan(double start, double end, Span actual) {
        assertEquals(start, actual.start(), 1e-9);
        assertEquals(end, actual.end(), 1e-9);
    }
}
