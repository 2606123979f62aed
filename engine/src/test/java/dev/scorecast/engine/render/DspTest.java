package dev.scorecast.engine.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.dsp.GainRamp;
import dev.scorecast.engine.dsp.LoudnessMeter;
import dev.scorecast.engine.dsp.TruePeakLimiter;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The mixer's stages on synthetic signals, where the right answer is known. */
class DspTest {

    static final int RATE = 48_000;

    @Test
    void aHardGainChangeIsRampedWithoutAClick() {
        int n = RATE;
        float[][] x = sine(n, 1000, 0.5, 0);
        float[][] y = new float[2][n];
        GainRamp gain = new GainRamp(1, 0);
        int block = 1000;
        for (int at = 0; at < n; at += block) {
            if (at == 24_000) {
                gain.setTarget(Mixer.dbToGain(-20)); // a cut of 20 dB at once
            }
            float[][] in = {Arrays.copyOfRange(x[0], at, at + block), Arrays.copyOfRange(x[1], at, at + block)};
            float[][] out = new float[2][block];
            gain.addTo(in, out, block);
            System.arraycopy(out[0], 0, y[0], at, block);
        }
        double sineStep = 2 * Math.PI * 1000 / RATE * 0.5; // the largest step of the sine itself
        double jump = maxJump(y[0], 0, n);
        assertTrue(jump <= sineStep * 1.01, "max sample-to-sample jump " + jump + " vs the sine's own " + sineStep);
        assertEquals(0.05, peak(y[0], 24_000 + GainRamp.RAMP_FRAMES, n), 0.001);
    }

    @Test
    void limiterHoldsTheCeilingThroughAHardLevelJumpWithoutAClick() {
        int n = RATE;
        float[][] x = sine(n, 997, 0.03, 0);
        for (int i = RATE / 2; i < n; i++) { // +36 dB at once, 6 dB over full scale
            x[0][i] *= 2.0f / 0.03f;
            x[1][i] *= 2.0f / 0.03f;
        }
        TruePeakLimiter limiter = new TruePeakLimiter(-1.3, RATE);
        float[][] y = run(limiter, x, n + TruePeakLimiter.LATENCY);
        float ceiling = (float) Mixer.dbToGain(-1.3);
        assertTrue(peak(y[0], 0, y[0].length) <= ceiling, "sample peak " + peak(y[0], 0, y[0].length));
        double sineStep = 2 * Math.PI * 997 / RATE * ceiling;
        double jump = maxJump(y[0], 0, y[0].length);
        assertTrue(jump <= sineStep * 1.05, "max jump " + jump + " vs a sine at the ceiling " + sineStep);
        // Quiet material passes untouched (delayed only).
        assertEquals(x[0][1000], y[0][1000 + TruePeakLimiter.LATENCY], 1e-7);
        System.out.printf(
                "limiter: max jump %.4f (sine at ceiling %.4f), deepest reduction %.1f dB%n",
                jump, sineStep, limiter.maxReductionDb());
    }

    @Test
    void limiterCatchesInterSamplePeaks() {
        // A quarter-sample-rate sine at 45 degrees: every sample is at 0.707 of a peak that falls between samples.
        int n = RATE;
        float[][] x = new float[2][n];
        for (int i = 0; i < n; i++) {
            x[0][i] = x[1][i] = (float) (1.1 * Math.sin(Math.PI / 2 * i + Math.PI / 4));
        }
        float[][] y = run(new TruePeakLimiter(-1.3, RATE), x, n + TruePeakLimiter.LATENCY);
        LoudnessMeter meter = new LoudnessMeter(RATE, 2);
        meter.accept(y, y[0].length);
        double tp = meter.finish().truePeakDbtp();
        assertTrue(tp <= -1.2, "true peak " + tp);
        assertTrue(tp >= -1.6, "not limited more than needed: " + tp);
    }

    @Test
    void compressorIsGentle() {
        int n = RATE * 4;
        float[][] x = sine(n, 200, 0.5, 0); // about -9 dBFS RMS, 13 dB over a -22 dBFS threshold
        BusCompressor c = new BusCompressor(-22, RATE);
        c.process(x, n);
        double outRmsDb = 20 * Math.log10(RendererTest.rms(x[0], n - RATE, n));
        double inRmsDb = 20 * Math.log10(0.5 / Math.sqrt(2));
        // 2:1 above the knee: 13 dB over -> about 6.5 dB of reduction once settled.
        assertEquals(inRmsDb - 6.5, outRmsDb, 0.7);
        assertTrue(c.maxReductionDb() < 7.5);
    }

    static float[][] run(TruePeakLimiter limiter, float[][] x, int total) {
        float[][] y = new float[2][total];
        int block = 4096;
        for (int at = 0; at < total; at += block) {
            int m = Math.min(block, total - at);
            float[][] buf = new float[2][m];
            for (int c = 0; c < 2; c++) {
                for (int i = 0; i < m; i++) {
                    buf[c][i] = at + i < x[c].length ? x[c][at + i] : 0;
                }
            }
            limiter.process(buf, m);
            System.arraycopy(buf[0], 0, y[0], at, m);
            System.arraycopy(buf[1], 0, y[1], at, m);
        }
        return y;
    }

    static float[][] sine(int n, double hz, double amplitude, double phase) {
        float[][] x = new float[2][n];
        for (int i = 0; i < n; i++) {
            x[0][i] = x[1][i] = (float) (amplitude * Math.sin(2 * Math.PI * hz * i / RATE + phase));
        }
        return x;
    }

    static double maxJump(float[] x, int from, int to) {
        double m = 0;
        for (int i = Math.max(1, from); i < to; i++) {
            m = Math.max(m, Math.abs(x[i] - x[i - 1]));
        }
        return m;
    }

    static float peak(float[] x, int from, int to) {
        float p = 0;
        for (int i = from; i < to; i++) {
            p = Math.max(p, Math.abs(x[i]));
        }
        return p;
    }
}
