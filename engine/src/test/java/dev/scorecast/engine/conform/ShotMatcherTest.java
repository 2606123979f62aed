package dev.scorecast.engine.conform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.conform.ShotMatcher.Match;
import dev.scorecast.engine.conform.ShotMatcher.Shot;
import java.util.List;
import java.util.function.DoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * Shot matching on synthetic signatures (ConformTest does it on real re-encoded video): a moving
 * shot trimmed at its head is found with the offset of the trim, at another frame rate too; a still
 * shot, which fits anywhere, keeps its head where the cut was; a shot the old cut never had is new.
 */
class ShotMatcherTest {
    static final int SIZE = Signatures.COLUMNS * Signatures.ROWS * 3;

    /** A shot whose picture drifts with time: cell values move at their own speeds from a base. */
    static float[] moving(double t, int seed) {
        float[] out = new float[SIZE];
        for (int i = 0; i < SIZE; i++) {
            out[i] = (float) (0.5 + 0.4 * Math.sin(seed * 1.7 + i * 0.37 + t * (0.8 + (i % 5) * 0.3)));
        }
        return out;
    }

    static float[] still(int seed) {
        return moving(0, seed);
    }

    /** Frames at {@code fps} over {@code duration}, each picture from {@code picture}. */
    static Signatures video(double duration, double fps, DoubleFunction<float[]> picture) {
        int n = (int) Math.round(duration * fps);
        double[] times = new double[n];
        float[][] prints = new float[n][];
        for (int k = 0; k < n; k++) {
            times[k] = k / fps;
            prints[k] = picture.apply(times[k]);
        }
        return new Signatures(times, prints);
    }

    /** The old cut: a moving shot 0-4 s, a still shot 4-8 s, another moving shot 8-12 s. */
    static float[] oldPicture(double t) {
        return t < 4 ? moving(t, 1) : t < 8 ? still(2) : moving(t - 8, 3);
    }

    static final List<Shot> OLD = ShotMatcher.shots(List.of(4.0, 8.0), 12);

    @Test
    void aTrimmedMovingShotIsFoundWithItsOffsetAtAnotherFrameRate() {
        // New cut at 30 fps: the third shot first, with its first 1.2 s trimmed away, then the first shot.
        Signatures now = video(6.8, 30, t -> t < 2.8 ? moving(t + 1.2, 3) : moving(t - 2.8, 1));
        List<Match> matches = ShotMatcher.match(
                OLD, video(12, 25, ShotMatcherTest::oldPicture), ShotMatcher.shots(List.of(2.8), 6.8), now);
        assertEquals(2, matches.get(0).old().index());
        assertEquals(-9.2, matches.get(0).shift(), 0.041, "new = old - 9.2: old 9.2 s shows at 0");
        assertEquals(0, matches.get(1).old().index());
        assertEquals(2.8, matches.get(1).shift(), 1e-9);
    }

    @Test
    void aStillShotKeepsItsHeadAndAShotNeverSeenIsNew() {
        // The still shot cut to 2 s (it fits anywhere in its 4 s), then pictures the old cut never had.
        Signatures now = video(5, 25, t -> t < 2 ? still(2) : moving(t, 9));
        List<Match> matches = ShotMatcher.match(
                OLD, video(12, 25, ShotMatcherTest::oldPicture), ShotMatcher.shots(List.of(2.0), 5), now);
        assertTrue(matches.get(0).found());
        assertEquals(1, matches.get(0).old().index());
        assertEquals(-4, matches.get(0).shift(), 1e-9, "the still shot's head stays where its cut was");
        assertFalse(
                matches.get(1).found(),
                () -> "matched at distance " + matches.get(1).distance());
    }
}
