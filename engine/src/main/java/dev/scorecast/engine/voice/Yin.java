package dev.scorecast.engine.voice;

import dev.scorecast.engine.error.InvalidParameter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * YIN pitch tracking (de Cheveigné and Kawahara, 2002): difference function, cumulative mean
 * normalisation, absolute threshold, then parabolic interpolation around the chosen lag so the
 * estimate is finer than one sample. A pure function of the samples, their rate and the settings.
 */
public final class Yin {

    private Yin() {}

    /** Tracks mono {@code pcm} at {@code sampleRateHz} with {@link YinSettings#DEFAULT} (20 ms frames). */
    public static List<PitchFrame> track(float[] pcm, int sampleRateHz) {
        return track(pcm, sampleRateHz, YinSettings.DEFAULT);
    }

    /**
     * One frame per hop whose window and longest lag fit in the signal; frame {@code i} covers
     * samples from {@code i * hop}, and its time is the centre of its window.
     */
    public static List<PitchFrame> track(float[] pcm, int sampleRateHz, YinSettings settings) {
        Objects.requireNonNull(pcm, "pcm");
        Objects.requireNonNull(settings, "settings");
        if (sampleRateHz < 4000 || sampleRateHz > 384_000) {
            throw new InvalidParameter("sampleRateHz", "must be in [4000, 384000] Hz, was " + sampleRateHz);
        }
        if (settings.maxHz() * 2 > sampleRateHz) {
            throw new InvalidParameter("maxHz", "must be below half the sample rate (" + sampleRateHz / 2 + " Hz)");
        }
        int window = Math.max(8, (int) Math.round(settings.windowSeconds() * sampleRateHz));
        int minLag = Math.max(2, (int) Math.floor(sampleRateHz / settings.maxHz()));
        int maxLag = (int) Math.ceil(sampleRateHz / settings.minHz());
        double hop = settings.hopSeconds() * sampleRateHz;
        double silence = Math.pow(10, settings.silenceDbfs() / 20);
        double[] d = new double[maxLag + 2];
        List<PitchFrame> frames = new ArrayList<>();
        for (int i = 0; ; i++) {
            int start = (int) Math.round(i * hop);
            if (start + window + maxLag + 1 > pcm.length) {
                break;
            }
            double time = (start + window / 2.0) / sampleRateHz;
            if (rms(pcm, start, window) < silence) {
                frames.add(new PitchFrame(time, 0, 1, false));
                continue;
            }
            normalisedDifference(pcm, start, window, maxLag + 1, d);
            frames.add(estimate(d, minLag, maxLag, time, sampleRateHz, settings));
        }
        return frames;
    }

    /** d'(tau) of the paper, written into {@code d[0..maxLag]}. */
    private static void normalisedDifference(float[] x, int start, int window, int maxLag, double[] d) {
        d[0] = 1;
        double running = 0;
        for (int tau = 1; tau <= maxLag; tau++) {
            double sum = 0;
            for (int j = start, end = start + window; j < end; j++) {
                double diff = x[j] - x[j + tau];
                sum += diff * diff;
            }
            running += sum;
            d[tau] = running > 0 ? sum * tau / running : 1;
        }
    }

    private static PitchFrame estimate(double[] d, int minLag, int maxLag, double time, int rate, YinSettings s) {
        int chosen = -1;
        for (int tau = minLag; tau <= maxLag; tau++) {
            if (d[tau] < s.threshold()) {
                // Walk down to the bottom of this dip: the first dip under the threshold is the period, not a multiple.
                while (tau + 1 <= maxLag && d[tau + 1] < d[tau]) {
                    tau++;
                }
                chosen = tau;
                break;
            }
        }
        if (chosen < 0) {
            // No dip is deep enough: take the global minimum, which the voicing limit may still accept.
            chosen = minLag;
            for (int tau = minLag + 1; tau <= maxLag; tau++) {
                if (d[tau] < d[chosen]) {
                    chosen = tau;
                }
            }
        }
        double lag = chosen;
        if (chosen > 1 && chosen < maxLag + 1) {
            double a = d[chosen - 1];
            double b = d[chosen];
            double c = d[chosen + 1];
            double denominator = a - 2 * b + c;
            if (denominator > 0) {
                lag = chosen + 0.5 * (a - c) / denominator;
            }
        }
        double aperiodicity = d[chosen];
        boolean voiced = aperiodicity <= s.voicedThreshold();
        return new PitchFrame(time, voiced ? rate / lag : 0, aperiodicity, voiced);
    }

    private static double rms(float[] x, int start, int length) {
        double sum = 0;
        for (int i = start; i < start + length; i++) {
            sum += x[i] * (double) x[i];
        }
        return Math.sqrt(sum / length);
    }
}
