package dev.scorecast.engine.dsp;

import java.util.Arrays;

/**
 * A look-ahead true-peak limiter. For every input sample it estimates the true peak (the sample
 * and the three points a 4x oversampling interpolator puts between it and the previous one) and
 * the gain that would bring it to the ceiling. A sliding minimum over the 5 ms look-ahead holds
 * that gain, a 100 ms one-pole release lets it recover, and two cascaded moving averages whose
 * combined length is the look-ahead turn every gain change into a smooth S-shaped ramp that is
 * complete before the peak arrives: the gain on a sample is never above what its peak needs.
 * The audio is delayed by {@link #LATENCY} samples to line it up with its gain.
 */
public final class TruePeakLimiter implements BlockProcessor {

    static final int OVERSAMPLING = 4;
    static final int TAPS = 32;
    private static final int HALF = TAPS / 2;
    private static final double KAISER_BETA = 8.0;
    /** How far ahead the gain sees a peak coming: 5 ms at 48 kHz (LimiterForecast mirrors it). */
    public static final int LOOKAHEAD = 240;
    /** The gain's recovery after a peak (LimiterForecast mirrors it). */
    public static final double RELEASE_MS = 100;

    private static final int BOX1 = LOOKAHEAD / 2;
    private static final int BOX2 = LOOKAHEAD - BOX1 + 1;
    /** Samples between a sample going in and coming out. */
    public static final int LATENCY = (HALF - 1) + (LOOKAHEAD - 1);

    private static final int RUN = 128;
    private static final InterSampleFilter FILTER = new InterSampleFilter(OVERSAMPLING, TAPS, KAISER_BETA, 1e-3);
    private static final float[][] PHASES = FILTER.phases();
    private static final float GAIN_BOUND = FILTER.gainBound();

    private final float ceiling;
    private final double release;
    private final float[][] history = new float[2][TAPS - 1];
    private float[][] ext = new float[2][0];
    private final long[] dqIndex = new long[LOOKAHEAD + 1];
    private final double[] dqValue = new double[LOOKAHEAD + 1];
    private int dqHead;
    private int dqSize;
    private long t;
    private double held = 1;
    private final double[] box1 = new double[BOX1];
    private final double[] box2 = new double[BOX2];
    private double sum1 = BOX1;
    private double sum2 = BOX2;
    private int i1;
    private int i2;
    private final float[][] delay = new float[2][LATENCY];
    private int di;
    private double minGain = 1;

    /** A limiter holding true peaks at or below {@code ceilingDbtp} for audio at {@code rate} Hz (stereo). */
    public TruePeakLimiter(double ceilingDbtp, int rate) {
        this.ceiling = (float) Math.pow(10, ceilingDbtp / 20);
        this.release = Smoothing.coefficient(RELEASE_MS, rate);
        Arrays.fill(box1, 1);
        Arrays.fill(box2, 1);
    }

    /** The deepest gain reduction so far, in dB (0 or negative). */
    public double maxReductionDb() {
        return 20 * Math.log10(minGain);
    }

    /** In place over the first {@code n} frames; the output lags the input by {@link #LATENCY} samples (silence first). */
    public void process(float[][] buf, int n) {
        process(buf, 0, n);
    }

    @Override
    public int latencyFrames() {
        return LATENCY;
    }

    /** In place; the output lags the input by {@link #LATENCY} samples (silence first). */
    @Override
    public void process(float[][] buf, int offset, int n) {
        int keep = TAPS - 1;
        if (ext[0].length < keep + n) {
            ext = new float[2][keep + n];
        }
        for (int c = 0; c < 2; c++) {
            System.arraycopy(history[c], 0, ext[c], 0, keep);
            System.arraycopy(buf[c], offset, ext[c], keep, n);
            System.arraycopy(ext[c], n, history[c], 0, keep);
        }
        float[] el = ext[0];
        float[] er = ext[1];
        float[] l = buf[0];
        float[] r = buf[1];
        for (int start = 0; start < n; start += RUN) {
            int end = Math.min(n, start + RUN);
            float local = 0;
            for (int j = start; j < end + TAPS - 1; j++) {
                local = Math.max(local, Math.max(Math.abs(el[j]), Math.abs(er[j])));
            }
            boolean quiet = local * GAIN_BOUND <= ceiling;
            for (int i = start; i < end; i++) {
                double need = 1;
                if (!quiet) {
                    float peak = Math.max(Math.abs(el[i + HALF]), Math.abs(er[i + HALF]));
                    for (float[] taps : PHASES) {
                        float yl = 0;
                        float yr = 0;
                        for (int j = 0; j < TAPS; j++) {
                            yl += taps[j] * el[i + j];
                            yr += taps[j] * er[i + j];
                        }
                        peak = Math.max(peak, Math.max(Math.abs(yl), Math.abs(yr)));
                    }
                    if (peak > ceiling) {
                        need = ceiling / (double) peak;
                    }
                }
                double gain = smooth(need);
                float xl = l[offset + i];
                float xr = r[offset + i];
                l[offset + i] = (float) (delay[0][di] * gain);
                r[offset + i] = (float) (delay[1][di] * gain);
                delay[0][di] = xl;
                delay[1][di] = xr;
                di = di + 1 == LATENCY ? 0 : di + 1;
            }
        }
    }

    /** Sliding minimum over the look-ahead, release, then the two moving averages. */
    private double smooth(double need) {
        while (dqSize > 0 && dqValue[(dqHead + dqSize - 1) % dqValue.length] >= need) {
            dqSize--;
        }
        int tail = (dqHead + dqSize) % dqValue.length;
        dqIndex[tail] = t;
        dqValue[tail] = need;
        dqSize++;
        while (dqIndex[dqHead] <= t - LOOKAHEAD) {
            dqHead = (dqHead + 1) % dqValue.length;
            dqSize--;
        }
        t++;
        double min = dqValue[dqHead];
        held = Math.min(min, held + (1 - held) * release);
        sum1 += held - box1[i1];
        box1[i1] = held;
        i1 = i1 + 1 == BOX1 ? 0 : i1 + 1;
        double a = sum1 / BOX1;
        sum2 += a - box2[i2];
        box2[i2] = a;
        i2 = i2 + 1 == BOX2 ? 0 : i2 + 1;
        double g = Math.min(1, sum2 / BOX2);
        minGain = Math.min(minGain, g);
        return g;
    }
}
