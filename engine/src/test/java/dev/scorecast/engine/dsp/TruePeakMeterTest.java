package dev.scorecast.engine.dsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.scorecast.engine.error.InvalidParameter;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class TruePeakMeterTest {

    @Test
    void findsThePeakBetweenSamples() {
        // A quarter of the sample rate at 45 degrees: every sample is at 0.707 of the peak.
        float[] x = new float[48_000];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) (0.5 * Math.min(1, i / 4800.0) * Math.sin(Math.PI / 2 * i + Math.PI / 4));
        }
        assertEquals(20 * Math.log10(0.5), measure(x, 4096), 0.05);
        assertEquals(20 * Math.log10(0.5 * Math.sqrt(0.5)), samplePeakDb(x), 0.01, "the samples alone miss 3 dB");
    }

    @Test
    void aLowSineReadsItsSamplePeak() {
        float[] x = new float[48_000];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) (0.8 * Math.sin(2 * Math.PI * 100 * i / 48_000.0));
        }
        assertEquals(20 * Math.log10(0.8), measure(x, 1000), 0.01);
    }

    @Test
    void blockSizeDoesNotMatter() {
        float[] x = new float[20_000];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) (Math.sin(i * 1.3) * Math.cos(i * 0.071) * 0.6);
        }
        double whole = measure(x, x.length);
        assertEquals(whole, measure(x, 1), 1e-6);
        assertEquals(whole, measure(x, 333), 1e-6);
        assertEquals(whole, measure(x, 4096), 1e-6);
    }

    @Test
    void loudestChannelCounts() {
        TruePeakMeter meter = new TruePeakMeter(2);
        float[] quiet = new float[4800];
        float[] loud = new float[4800];
        for (int i = 0; i < loud.length; i++) {
            quiet[i] = (float) (0.1 * Math.sin(2 * Math.PI * 50 * i / 48_000.0));
            loud[i] = (float) (0.4 * Math.sin(2 * Math.PI * 50 * i / 48_000.0));
        }
        meter.accept(new float[][] {quiet, loud}, loud.length);
        assertEquals(20 * Math.log10(0.4), meter.truePeakDbtp(), 0.05);
    }

    @Test
    void silenceIsMinusInfinity() {
        TruePeakMeter meter = new TruePeakMeter(1);
        meter.accept(new float[][] {new float[5000]}, 5000);
        assertEquals(Double.NEGATIVE_INFINITY, meter.truePeakDbtp());
        assertThrows(InvalidParameter.class, () -> new TruePeakMeter(0));
    }

    private static double measure(float[] x, int block) {
        TruePeakMeter meter = new TruePeakMeter(1);
        for (int at = 0; at < x.length; at += block) {
            int n = Math.min(block, x.length - at);
            meter.accept(new float[][] {Arrays.copyOfRange(x, at, at + n)}, n);
        }
        return meter.truePeakDbtp();
    }

    private static double samplePeakDb(float[] x) {
        double peak = 0;
        for (float v : x) {
            peak = Math.max(peak, Math.abs(v));
        }
        return 20 * Math.log10(peak);
    }
}
