package dev.scorecast.engine.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.plan.SectionFitter.Stretch;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A hard cut inside a section changes the music on the bar line nearest it (issue 26: the
 * speed ladder's still shot after a moving one, merged into one section, stayed busy for two
 * bars, and the bar before the cut rose ahead of it).
 */
class IntensityCurveTest {
    /** One 20 s section of ten 2 s bars; a moving shot until {@code cut}, then a still one. */
    private static double[] bars(double cut) {
        var analysis = Analyses.of(20, 25, Analyses.cuts(cut), t -> t < cut ? 0.7 : 0.05, 0.5, 0.5, "techno", 120);
        var section = new Stretch(0, 20, 10, 120, null, analysis.cuts());
        return IntensityCurve.bars(List.of(section), analysis)[0];
    }

    @Test
    void theMusicChangesOnTheBarLineNearestTheCut() {
        // The cut at 10.6 s falls early in bar 5 (10 to 12 s): bar 5 belongs to the still shot.
        double[] early = bars(10.6);
        // At 11.4 s it falls late in bar 5: bar 5 still belongs to the moving shot.
        double[] late = bars(11.4);
        for (int b = 0; b < 10; b++) {
            boolean movingEarly = b < 5;
            boolean movingLate = b <= 5;
            assertEquals(movingEarly ? early[0] : early[9], early[b], 1e-9, "bar " + b + " of " + str(early));
            assertEquals(movingLate ? late[0] : late[9], late[b], 1e-9, "bar " + b + " of " + str(late));
        }
        assertTrue(early[0] - early[9] > 0.5, "moving and still shots far apart: " + str(early));
    }

    @Test
    void withoutACutNeighbouringBarsAreStillSmoothed() {
        // One shot whose energy jumps for one bar: the bars either side take a quarter of it.
        var analysis = Analyses.of(20, 25, List.of(), t -> t >= 10 && t < 12 ? 0.6 : 0.2, 0.5, 0.5, "techno", 120);
        double[] bars = IntensityCurve.bars(List.of(new Stretch(0, 20, 10, 120, null, List.of())), analysis)[0];
        assertTrue(bars[4] > bars[3] && bars[6] > bars[7], str(bars));
        assertArrayEquals(new double[] {bars[3], bars[7]}, new double[] {bars[0], bars[9]}, 1e-9);
    }

    private static String str(double[] v) {
        return Arrays.toString(v);
    }
}
