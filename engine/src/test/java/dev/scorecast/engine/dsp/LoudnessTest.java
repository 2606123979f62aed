package dev.scorecast.engine.dsp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.scorecast.engine.error.InvalidParameter;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class LoudnessTest {

    private static final int STEP = 4800; // 100 ms at 48 kHz

    @Test
    void kWeightingAt48kHzIsTheStandardsTable() {
        Biquad[] k = Loudness.kWeighting(48_000);
        // ITU-R BS.1770-4, tables 1 and 2.
        assertArrayEquals(
                new double[] {1.53512485958697, -2.69169618940638, 1.19839281085285, -1.69065929318241, 0.73248077421585
                },
                coefficients(k[0]),
                1e-9);
        assertArrayEquals(new double[] {1.0, -2.0, 1.0, -1.99004745483398, 0.99007225036621}, coefficients(k[1]), 1e-9);
    }

    @Test
    void kWeightingHasTheSameShapeAtOtherRates() {
        for (int rate : new int[] {44_100, 32_000, 96_000}) {
            Biquad[] k = Loudness.kWeighting(rate);
            Biquad[] ref = Loudness.kWeighting(48_000);
            for (double f : new double[] {20, 100, 1000, 4000, 10_000}) {
                double gain = k[0].gainDb(f, rate) + k[1].gainDb(f, rate);
                double expected = ref[0].gainDb(f, 48_000) + ref[1].gainDb(f, 48_000);
                assertEquals(expected, gain, 0.05, rate + " Hz at " + f + " Hz");
            }
        }
    }

    @Test
    void lufsOfAMeanSquare() {
        assertEquals(-0.691, Loudness.lufs(1), 1e-12);
        assertEquals(-10.691, Loudness.lufs(0.1), 1e-12);
        assertEquals(Double.NEGATIVE_INFINITY, Loudness.lufs(0));
    }

    @Test
    void integratedIsTheMeanOfBlocksOfASteadySignal() {
        double[] steps = steady(50, power(-23));
        assertEquals(-23, Loudness.integratedLufs(steps, 50L * STEP, STEP), 1e-9);
    }

    @Test
    void absoluteGateDropsBlocksUnderMinus70() {
        double[] steps = concat(steady(40, power(-80)), steady(20, power(-30)));
        // Only blocks made entirely of the -30 part pass, plus the three straddling ones that average above -70.
        double integrated = Loudness.integratedLufs(steps, 60L * STEP, STEP);
        assertEquals(-30, integrated, 0.7);
        assertNull(Loudness.integratedLufs(steady(40, power(-75)), 40L * STEP, STEP));
    }

    @Test
    void relativeGateDropsBlocksTenLuUnderTheUngatedMean() {
        // 10 s at -20 and 10 s at -40: -40 lies more than 10 LU under the first gate's mean (-22.7), so it is gated
        // out.
        double[] steps = concat(steady(100, power(-20)), steady(100, power(-40)));
        // The three blocks straddling the change are mostly -20 and pass: they pull it down a little.
        assertEquals(-20, Loudness.integratedLufs(steps, 200L * STEP, STEP), 0.1);
        // At -25 it is inside the gate, and counts.
        double[] close = concat(steady(100, power(-20)), steady(100, power(-25)));
        double expected = Loudness.lufs((power(-20) + power(-25)) / 2 / STEP);
        assertEquals(expected, Loudness.integratedLufs(close, 200L * STEP, STEP), 0.05);
    }

    @Test
    void nothingUnder400Ms() {
        assertNull(Loudness.integratedLufs(steady(3, power(-10)), 3L * STEP, STEP));
        assertNull(Loudness.integratedLufs(new double[0], 0, STEP));
    }

    @Test
    void partialLastStepDoesNotEnterGating() {
        double[] steps = concat(steady(10, power(-23)), new double[] {power(-3) * 100}); // a loud 100 frames
        assertEquals(-23, Loudness.integratedLufs(steps, 10L * STEP + 100, STEP), 1e-9);
    }

    @Test
    void momentaryIsCentredOnEachStep() {
        double[] steps = concat(steady(10, 0), steady(1, power(-20)), steady(10, 0));
        double[] m = Loudness.momentaryLufs(steps, 21L * STEP, STEP);
        assertEquals(21, m.length);
        // Step 10 is loud; windows i-1..i+2 that contain it are those of steps 8..11.
        for (int i = 0; i < m.length; i++) {
            boolean hears = i >= 8 && i <= 11;
            assertEquals(hears, m[i] > -100, "step " + i + ": " + m[i]);
        }
        assertEquals(-20 + 10 * Math.log10(0.25), m[10], 1e-9); // one loud step in four
    }

    @Test
    void momentaryAtTheEdgesUsesWhatThereIs() {
        double[] m = Loudness.momentaryLufs(steady(2, power(-20)), 2L * STEP, STEP);
        assertArrayEquals(new double[] {-20, -20}, m, 1e-9);
        double[] partial = Loudness.momentaryLufs(new double[] {power(-20) / STEP * 480}, 480, STEP);
        assertArrayEquals(new double[] {-20}, partial, 1e-9);
    }

    @Test
    void unitScale() {
        assertEquals(0, Loudness.unitScale(Double.NEGATIVE_INFINITY));
        assertEquals(0, Loudness.unitScale(-60));
        assertEquals(0.5, Loudness.unitScale(-30), 1e-12);
        assertEquals(1, Loudness.unitScale(0));
        assertEquals(1, Loudness.unitScale(5));
        assertThrows(InvalidParameter.class, () -> Loudness.unitScale(Double.NaN));
    }

    @Test
    void badParameters() {
        assertThrows(InvalidParameter.class, () -> Loudness.kWeighting(100));
        assertThrows(InvalidParameter.class, () -> Loudness.integratedLufs(new double[2], 5L * STEP, STEP));
        assertThrows(InvalidParameter.class, () -> Loudness.momentaryLufs(new double[2], -1, STEP));
        assertThrows(InvalidParameter.class, () -> new LoudnessMeter(44_101, 2));
        assertThrows(InvalidParameter.class, () -> new LoudnessMeter(48_000, 6));
    }

    private static double[] coefficients(Biquad b) {
        return new double[] {b.b0(), b.b1(), b.b2(), b.a1(), b.a2()};
    }

    /** The K-weighted energy of one step whose loudness is {@code lufs}. */
    private static double power(double lufs) {
        return Math.pow(10, (lufs + 0.691) / 10) * STEP;
    }

    private static double[] steady(int steps, double energy) {
        double[] e = new double[steps];
        Arrays.fill(e, energy);
        return e;
    }

    private static double[] concat(double[]... parts) {
        return Arrays.stream(parts).flatMapToDouble(Arrays::stream).toArray();
    }
}
