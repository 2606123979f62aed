package dev.scorecast.engine.dsp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.error.InvalidParameter;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PolyphaseResamplerTest {

    @ParameterizedTest(name = "{0} -> {1} Hz")
    @CsvSource({"48000, 16000", "16000, 48000", "22050, 16000", "44100, 48000"})
    void aPassBandSineComesOutAtTheSameLevelAndTime(int in, int out) {
        double hz = 1000;
        float[] y = PolyphaseResampler.resample(sine(in, hz, 1.0, 0.5), in, out);
        assertEquals((int) Math.ceil(in * 1.0 * out / in), y.length, 1);
        float[] expected = sine(out, hz, 1.0, 0.5);
        // Away from the ends, where the filter sees the silence around the signal.
        double worst = 0;
        for (int i = out / 10; i < out * 9 / 10; i++) {
            worst = Math.max(worst, Math.abs(y[i] - expected[i]));
        }
        assertTrue(worst < 2e-3, "largest error " + worst); // -54 dB re the 0.5 amplitude: level and timing both right
    }

    @Test
    void passBandIsFlatAndTheFoldBackBandIsGone() {
        for (double hz : new double[] {100, 3000, 6000}) {
            double gain =
                    rms(PolyphaseResampler.resample(sine(48_000, hz, 2, 0.5), 48_000, 16_000)) / (0.5 / Math.sqrt(2));
            assertEquals(0, 20 * Math.log10(gain), 0.1, hz + " Hz");
        }
        for (double hz : new double[] {8000, 9000, 12_000, 20_000}) {
            // Would fold back to 16000 - hz; must be at least 60 dB down.
            double gain =
                    rms(PolyphaseResampler.resample(sine(48_000, hz, 2, 0.5), 48_000, 16_000)) / (0.5 / Math.sqrt(2));
            assertTrue(20 * Math.log10(gain) < -60, hz + " Hz: " + 20 * Math.log10(gain) + " dB");
        }
    }

    @Test
    void anImpulseStaysInPlace() {
        float[] x = new float[48_000];
        x[30_000] = 1; // 0.625 s
        float[] y = PolyphaseResampler.resample(x, 48_000, 16_000);
        int loudest = 0;
        for (int i = 0; i < y.length; i++) {
            loudest = Math.abs(y[i]) > Math.abs(y[loudest]) ? i : loudest;
        }
        assertEquals(10_000, loudest);
    }

    @ParameterizedTest(name = "{0} -> {1} Hz")
    @CsvSource({"48000, 16000", "16000, 48000", "22050, 16000"})
    void streamingInAnyBlocksGivesTheSameAsOneCall(int in, int out) {
        Random random = new Random(4);
        float[] x = new float[in];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) random.nextGaussian() * 0.2f;
        }
        float[] whole = PolyphaseResampler.resample(x, in, out);
        PolyphaseResampler r = new PolyphaseResampler(in, out);
        float[] pieces = new float[0];
        for (int at = 0; at < x.length; ) {
            int n = Math.min(x.length - at, 1 + random.nextInt(5000));
            pieces = concat(pieces, r.push(x, at, n));
            at += n;
        }
        pieces = concat(pieces, r.finish());
        assertArrayEquals(whole, pieces, 1e-6f);
    }

    @Test
    void emptyAndTinyInputs() {
        assertEquals(0, PolyphaseResampler.resample(new float[0], 48_000, 16_000).length);
        assertEquals(1, PolyphaseResampler.resample(new float[1], 48_000, 16_000).length);
        assertEquals(3, PolyphaseResampler.resample(new float[1], 16_000, 48_000).length);
    }

    @Test
    void badRates() {
        assertThrows(InvalidParameter.class, () -> new PolyphaseResampler(0, 16_000));
        assertThrows(InvalidParameter.class, () -> new PolyphaseResampler(48_000, -1));
        assertThrows(InvalidParameter.class, () -> new PolyphaseResampler(48_001, 16_000)); // 16000 phases
    }

    private static float[] sine(int rate, double hz, double seconds, double amplitude) {
        float[] x = new float[(int) Math.round(rate * seconds)];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) (amplitude * Math.sin(2 * Math.PI * hz * i / rate));
        }
        return x;
    }

    /** RMS of the middle half, away from the edges. */
    private static double rms(float[] y) {
        double sum = 0;
        int from = y.length / 4;
        int to = y.length * 3 / 4;
        for (int i = from; i < to; i++) {
            sum += y[i] * y[i];
        }
        return Math.sqrt(sum / (to - from));
    }

    private static float[] concat(float[] a, float[] b) {
        float[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
