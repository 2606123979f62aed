package dev.scorecast.engine.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.ScorecastException.FieldProblem;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The ducking gain on its own, sample by sample, where the right answer is known; and the settings' checks. */
class DuckingTest {

    static final int RATE = 48_000;

    @Test
    void fullDepthThroughTheSpanWithTheConfiguredTenToNinetyTimes() {
        double[] g = envelope(Ducking.under(List.of(new Span(1.0, 2.0))), 4.0);
        double depth = -db(g[RATE]);
        assertEquals(10, depth, 1e-4, "down by the full depth when speech starts");
        assertEquals(10, -db(g[2 * RATE - 1]), 1e-4, "and still at the end of the span");
        assertEquals(
                1.0,
                g[RATE - (int) (0.1 * RATE * DuckingEnvelope.RAMP_PER_10_90) - 1],
                0,
                "untouched before the attack ramp");
        assertEquals(
                1.0,
                g[2 * RATE + (int) (0.45 * RATE * DuckingEnvelope.RAMP_PER_10_90) + 1],
                0,
                "back after the release ramp");
        double attack = tenToNinety(g, 0, RATE);
        double release = tenToNinety(g, 2 * RATE, 4 * RATE);
        System.out.printf(
                "envelope: depth %.2f dB, attack 10-90 %.1f ms, release 10-90 %.1f ms%n", depth, attack, release);
        assertEquals(100, attack, 0.5);
        assertEquals(450, release, 0.5);
        // No click: the gain moves by a tiny fraction per sample (a 1 dB step would be 0.11).
        double step = 0;
        for (int k = 1; k < g.length; k++) {
            step = Math.max(step, Math.abs(g[k] - g[k - 1]));
        }
        assertTrue(step < 2e-4, "largest gain step per sample " + step);
    }

    @Test
    void closeWordsAreMergedButDistantOnesRecover() {
        // 200 ms between two words: the music stays down between them.
        double[] close = envelope(Ducking.under(List.of(new Span(1.7, 2.2), new Span(1.0, 1.5))), 4.0);
        for (int k = (int) (1.5 * RATE); k < 1.7 * RATE; k++) {
            assertEquals(10, -db(close[k]), 1e-4, "gain in the gap at " + k);
        }
        // Two seconds apart: fully back in between, and nothing moves outside the ramps.
        double[] apart = envelope(Ducking.under(List.of(new Span(1.0, 1.5), new Span(3.5, 4.0))), 5.0);
        assertEquals(1.0, apart[(int) (2.5 * RATE)], 0);
        assertEquals(1.0, apart[(int) (0.5 * RATE)], 0);
        DuckingEnvelope merged =
                new DuckingEnvelope(Ducking.under(List.of(new Span(1.0, 1.5), new Span(1.7, 2.2))), RATE);
        assertEquals(1, merged.spans());
    }

    @Test
    void offAndNoSpeechLeaveTheMusicAlone() {
        for (Ducking d : List.of(
                Ducking.off(), Ducking.under(List.of()), new Ducking(false, List.of(new Span(1, 2)), 10, 100, 450))) {
            double[] g = envelope(d, 3.0);
            assertTrue(Arrays.stream(g).allMatch(v -> v == 1.0), d.toString());
        }
    }

    @Test
    void speechAtTheVeryStartStartsDucked() {
        double[] g = envelope(Ducking.under(List.of(new Span(0.0, 1.0))).withDepthDb(12), 2.0);
        assertEquals(12, -db(g[0]), 1e-4);
    }

    @Test
    void settingsAreCheckedAllAtOnceByField() {
        InvalidParameter e = assertThrows(
                InvalidParameter.class, () -> new Ducking(true, Arrays.asList(new Span(-1, 2), null), 5, 20, 900));
        List<String> fields = e.problems().stream().map(FieldProblem::field).toList();
        assertEquals(
                List.of(
                        "ducking.speech[0]",
                        "ducking.speech[1]",
                        "ducking.depth_db",
                        "ducking.attack_ms",
                        "ducking.release_ms"),
                fields);
        assertThrows(InvalidParameter.class, () -> Ducking.under(List.of()).withAttackMs(151));
        assertThrows(InvalidParameter.class, () -> Ducking.under(List.of()).withReleaseMs(299));
        Ducking edges = Ducking.under(List.of()).withDepthDb(8).withAttackMs(50).withReleaseMs(600);
        assertEquals(8, edges.depthDb());

        InvalidParameter m = assertThrows(
                InvalidParameter.class,
                () -> new MixSettings(
                        Map.of(),
                        Map.of(),
                        5,
                        0,
                        Optional.empty(),
                        0,
                        MixSettings.OriginalAudioRole.DIALOGUE,
                        Optional.of(Path.of("/tmp/v.wav")),
                        99,
                        Ducking.off()));
        assertEquals(
                List.of("target_lufs", "voiceover_gain_db"),
                m.problems().stream().map(FieldProblem::field).toList());

        // The old six-argument form still means: background, no voiceover, no ducking.
        MixSettings old = new MixSettings(Map.of(), Map.of(), -14, 0, Optional.of(Path.of("/tmp/o.wav")), -6);
        assertEquals(MixSettings.OriginalAudioRole.BACKGROUND, old.originalAudioRole());
        assertTrue(old.voiceoverWav().isEmpty());
        assertTrue(!old.ducking().enabled());
        MixSettings voiced = old.withOriginalAudio(Path.of("/tmp/o.wav"), MixSettings.OriginalAudioRole.DIALOGUE, 0)
                .withVoiceover(Path.of("/tmp/v.wav"), -2)
                .withDucking(Ducking.under(List.of(new Span(1, 2))));
        assertTrue(voiced.originalIsSpeech());
        assertEquals(-2, voiced.voiceoverGainDb());
        assertEquals(-14, voiced.targetLufs());
    }

    /** The gain per sample over {@code seconds}, asked for in blocks as the mixer does. */
    static double[] envelope(Ducking d, double seconds) {
        DuckingEnvelope env = new DuckingEnvelope(d, RATE);
        int n = (int) (seconds * RATE);
        double[] g = new double[n];
        float[][] block = new float[2][Mixer.BLOCK];
        for (int at = 0; at < n; at += Mixer.BLOCK) {
            int m = Math.min(Mixer.BLOCK, n - at);
            Arrays.fill(block[0], 1f);
            Arrays.fill(block[1], 1f);
            env.apply(block, at, m);
            for (int i = 0; i < m; i++) {
                g[at + i] = block[0][i];
            }
        }
        return g;
    }

    /** Milliseconds between the 10 % and 90 % points of the one level change (in dB) inside {@code [from, to)}. */
    static double tenToNinety(double[] g, int from, int to) {
        double a = db(g[from]);
        double b = db(g[to - 1]);
        Double t10 = null;
        Double t90 = null;
        for (int k = from; k < to; k++) {
            double f = (db(g[k]) - a) / (b - a);
            if (t10 == null && f >= 0.1) {
                t10 = (double) k;
            }
            if (t90 == null && f >= 0.9) {
                t90 = (double) k;
            }
        }
        return (t90 - t10) * 1000 / RATE;
    }

    static double db(double g) {
        return 20 * Math.log10(g);
    }
}
