package dev.scorecast.engine.analysis.audio;

import dev.scorecast.engine.dsp.RealFft;
import dev.scorecast.engine.io.WavFiles;
import java.nio.file.Path;

/**
 * The band balance of a stereo mix as /work/shared/tools/sound-features measures it: the mid
 * signal's long-term power spectrum (4096-point Hann frames, not overlapped) summed per band and
 * given in dB of the total between 20 Hz and 20 kHz. Bands: below 120 Hz, 120-500, 500-2k, 2-6k,
 * 6-12k and above 12 kHz.
 */
public final class BandBalance {
    public static final double[] EDGES = {20, 120, 500, 2000, 6000, 12000, 20000};
    public static final String[] NAMES = {"<120", "120-500", "500-2k", "2-6k", "6-12k", ">12k"};
    private static final int SIZE = 4096;

    private BandBalance() {}

    /** The band balance of the WAV file {@code wav}. */
    public static double[] of(Path wav) {
        return relative(power(wav));
    }

    /** The power per band of the WAV file {@code wav} (mean power per frame, linear). */
    public static double[] power(Path wav) {
        WavFiles.Sound sound = WavFiles.read(wav);
        return power(sound.stereo(), sound.rateHz());
    }

    /** dB of the total per band of {@code audio} (channels, then samples) at {@code rate}. */
    public static double[] of(float[][] audio, int rate) {
        return relative(power(audio, rate));
    }

    /** {@code bands} in dB of their sum. */
    public static double[] relative(double[] bands) {
        double total = 0;
        for (double b : bands) {
            total += b;
        }
        double[] out = new double[bands.length];
        for (int b = 0; b < bands.length; b++) {
            out[b] = 10 * Math.log10(bands[b] / total + 1e-12);
        }
        return out;
    }

    /** The power per band of {@code audio} (mean power per frame, linear). */
    public static double[] power(float[][] audio, int rate) {
        RealFft fft = new RealFft(SIZE);
        double[] frame = new double[SIZE];
        double[] magnitude = new double[SIZE / 2 + 1];
        double[] power = new double[SIZE / 2 + 1];
        float[] left = audio[0];
        float[] right = audio[audio.length > 1 ? 1 : 0];
        int frames = 0;
        for (int at = 0; at + SIZE <= left.length; at += SIZE) {
            frames++;
            for (int i = 0; i < SIZE; i++) {
                double hann = 0.5 - 0.5 * Math.cos(2 * Math.PI * i / (SIZE - 1));
                frame[i] = hann * (left[at + i] + right[at + i]) / 2;
            }
            fft.magnitudes(frame, magnitude);
            for (int k = 0; k < power.length; k++) {
                power[k] += magnitude[k] * magnitude[k];
            }
        }
        double[] bands = new double[EDGES.length - 1];
        for (int k = 0; k < power.length; k++) {
            double f = (double) k * rate / SIZE;
            for (int b = 0; b < bands.length; b++) {
                if (f >= EDGES[b] && f < EDGES[b + 1]) {
                    bands[b] += power[k] / Math.max(1, frames);
                }
            }
        }
        return bands;
    }
}
