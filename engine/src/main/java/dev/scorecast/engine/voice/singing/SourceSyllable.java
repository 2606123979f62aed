package dev.scorecast.engine.voice.singing;

import dev.scorecast.engine.dsp.PolyphaseResampler;
import dev.scorecast.engine.voice.Espeak;
import dev.scorecast.engine.voice.PitchFrame;
import dev.scorecast.engine.voice.Yin;
import dev.scorecast.engine.voice.YinSettings;
import java.util.Arrays;
import java.util.List;

/**
 * One syllable as espeak-ng spoke it, analysed for resynthesis: its samples at the singer's rate
 * with the silence around them trimmed, where it is voiced, its local period, its pitch marks (one
 * per glottal cycle, on the cycle's peak) and the steady middle of its vowel, the part that is
 * stretched to fill a long note.
 */
record SourceSyllable(
        float[] pcm, boolean[] voiced, float[] period, int[] marks, int stretchFrom, int stretchTo, double nucleusRms) {

    private static final double TRIM_LEVEL = 0.004; // about -48 dBFS
    private static final YinSettings TRACKING = new YinSettings(0.004, 0.015, 50, 900, 0.1, 0.3, -42);

    /** Analyses espeak-ng's output ({@link Espeak#SAMPLE_RATE_HZ}) for a singer running at {@code rate}. */
    static SourceSyllable analyse(float[] spoken, int rate) {
        int first = 0;
        while (first < spoken.length && Math.abs(spoken[first]) < TRIM_LEVEL) {
            first++;
        }
        int last = spoken.length - 1;
        while (last > first && Math.abs(spoken[last]) < TRIM_LEVEL) {
            last--;
        }
        if (first >= last) {
            return null;
        }
        float[] trimmed = Arrays.copyOfRange(spoken, first, last + 1);
        List<PitchFrame> frames = Yin.track(pad(trimmed), Espeak.SAMPLE_RATE_HZ, TRACKING);
        float[] pcm = PolyphaseResampler.resample(trimmed, Espeak.SAMPLE_RATE_HZ, rate);
        boolean[] voiced = new boolean[pcm.length];
        float[] period = new float[pcm.length];
        // With the padding (see pad), frame f is centred on trimmed time f * hop.
        for (int i = 0; i < pcm.length; i++) {
            int f = (int) Math.round((i / (double) rate) / TRACKING.hopSeconds());
            PitchFrame frame = frames.get(Math.min(frames.size() - 1, Math.max(0, f)));
            voiced[i] = frame.voiced();
            period[i] = frame.voiced() ? (float) (rate / frame.hz()) : 0;
        }
        int[] marks = PitchMarks.place(pcm, voiced, period);
        int[] nucleus = nucleus(pcm, voiced, rate);
        int length = nucleus[1] - nucleus[0];
        int from = nucleus[0] + length / 4;
        int to = Math.max(from + 1, nucleus[1] - length / 4);
        return new SourceSyllable(pcm, voiced, period, marks, from, to, rms(pcm, nucleus[0], nucleus[1]));
    }

    /** Half a window of silence on each side, so frame {@code i}'s centre falls on {@code i * hop}. */
    private static float[] pad(float[] x) {
        int half = (int) Math.round(TRACKING.windowSeconds() / 2 * Espeak.SAMPLE_RATE_HZ);
        int lag = (int) Math.ceil(Espeak.SAMPLE_RATE_HZ / TRACKING.minHz()) + 2;
        float[] padded = new float[x.length + 2 * half + lag];
        System.arraycopy(x, 0, padded, half, x.length);
        return padded;
    }

    /**
     * The vowel: the voiced stretch around the loudest voiced 5 ms block, as far as it stays within
     * 12 dB of that block. Consonants (voiced ones included) are quieter than the vowel they surround.
     */
    private static int[] nucleus(float[] x, boolean[] voiced, int rate) {
        int block = rate / 200;
        int blocks = Math.max(1, x.length / block);
        double[] energy = new double[blocks];
        int loudest = -1;
        for (int b = 0; b < blocks; b++) {
            int from = b * block;
            int to = Math.min(x.length, from + block);
            energy[b] = rms(x, from, to);
            if (voiced[Math.min(x.length - 1, from + block / 2)] && (loudest < 0 || energy[b] > energy[loudest])) {
                loudest = b;
            }
        }
        if (loudest < 0) {
            return new int[] {x.length / 4, Math.max(x.length / 4 + 1, 3 * x.length / 4)};
        }
        double floor = energy[loudest] * 0.25;
        int lo = loudest;
        while (lo > 0 && energy[lo - 1] >= floor && voiced[(lo - 1) * block + block / 2]) {
            lo--;
        }
        int hi = loudest;
        while (hi + 1 < blocks && energy[hi + 1] >= floor && voiced[(hi + 1) * block + block / 2]) {
            hi++;
        }
        return new int[] {lo * block, Math.min(x.length, (hi + 1) * block)};
    }

    static double rms(float[] x, int from, int to) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += x[i] * (double) x[i];
        }
        return to > from ? Math.sqrt(sum / (to - from)) : 0;
    }

    int length() {
        return pcm.length;
    }
}
