package dev.scorecast.engine.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.dsp.LoudnessMeter;
import dev.scorecast.engine.dsp.TruePeakLimiter;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The forecast's gain puts the limited master on its goal in one pass, where the unlimited gain
 * misses by what the limiter takes.
 */
class LimiterForecastTest {
    private static final int RATE = 48_000;
    private static final int BLOCK = 4096;

    @Test
    void theForecastGainLandsTheLimitedMasterOnTheGoal() {
        float[][] bus = drums(20 * RATE, 3);
        LimiterForecast forecast = new LimiterForecast(RATE);
        feed(bus, forecast::accept);
        double goal = -14;
        double unlimited = goal - forecast.unlimitedLufs();
        double ceiling = -2;

        double naive = limitedLufs(bus, unlimited, ceiling);
        double forecastGain = forecast.gainDb(goal, ceiling, unlimited);
        double landed = limitedLufs(bus, forecastGain, ceiling);
        System.out.printf(
                "limiter forecast: unlimited gain %.2f dB lands at %.2f LUFS; forecast gain %.2f dB at %.2f LUFS%n",
                unlimited, naive, forecastGain, landed);
        assertTrue(naive < goal - 1, "the limiter takes more than 1 LU at the unlimited gain: " + naive);
        assertEquals(goal, landed, 0.25);
    }

    @Test
    void aBusUnderTheCeilingNeedsNoMoreThanItsUnlimitedGain() {
        float[][] bus = drums(5 * RATE, 5);
        for (float[] c : bus) {
            for (int i = 0; i < c.length; i++) {
                c[i] *= 0.05f;
            }
        }
        LimiterForecast forecast = new LimiterForecast(RATE);
        feed(bus, forecast::accept);
        double unlimited = -30 - forecast.unlimitedLufs();
        assertEquals(unlimited, forecast.gainDb(-30, -1, unlimited), 1e-9);
    }

    @Test
    void silenceHasNoLoudness() {
        LimiterForecast forecast = new LimiterForecast(RATE);
        feed(new float[2][RATE], forecast::accept);
        assertNull(forecast.unlimitedLufs());
    }

    /** Noise under sharp hits, twice a second: peaks far above the loudness, as a drum bus has. */
    static float[][] drums(int frames, long seed) {
        Random random = new Random(seed);
        float[][] x = new float[2][frames];
        for (int i = 0; i < frames; i++) {
            double t = (i % (RATE / 2)) / (double) RATE;
            double hit = Math.exp(-t * 40) * Math.sin(2 * Math.PI * 70 * t);
            double bed = 0.03 * random.nextGaussian();
            x[0][i] = (float) (0.9 * hit + bed);
            x[1][i] = (float) (0.8 * hit + bed);
        }
        return x;
    }

    private interface Sink {
        void accept(float[][] buf, int n);
    }

    private static void feed(float[][] x, Sink sink) {
        float[][] buf = new float[2][BLOCK];
        for (int pos = 0; pos < x[0].length; pos += BLOCK) {
            int n = Math.min(BLOCK, x[0].length - pos);
            System.arraycopy(x[0], pos, buf[0], 0, n);
            System.arraycopy(x[1], pos, buf[1], 0, n);
            sink.accept(buf, n);
        }
    }

    /** The master stage as the mixer runs it: gain, the true-peak limiter, measured. */
    private static double limitedLufs(float[][] x, double gainDb, double ceilingDbtp) {
        TruePeakLimiter limiter = new TruePeakLimiter(ceilingDbtp, RATE);
        LoudnessMeter meter = new LoudnessMeter(RATE, 2);
        float g = (float) Math.pow(10, gainDb / 20);
        int frames = x[0].length;
        float[][] buf = new float[2][BLOCK];
        int skip = TruePeakLimiter.LATENCY;
        for (int pos = 0; pos < frames + TruePeakLimiter.LATENCY; pos += BLOCK) {
            int n = Math.min(BLOCK, frames + TruePeakLimiter.LATENCY - pos);
            for (int c = 0; c < 2; c++) {
                for (int i = 0; i < n; i++) {
                    buf[c][i] = pos + i < frames ? x[c][pos + i] * g : 0;
                }
            }
            limiter.process(buf, n);
            int from = Math.min(skip, n);
            skip -= from;
            int m = Math.min(n - from, frames - (pos + from - TruePeakLimiter.LATENCY));
            if (m > 0) {
                float[][] out = {Arrays.copyOfRange(buf[0], from, from + m), Arrays.copyOfRange(buf[1], from, from + m)
                };
                meter.accept(out, m);
            }
        }
        return meter.finish().integratedLufs();
    }
}
