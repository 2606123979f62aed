package dev.scorecast.engine.analysis.audio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.dsp.PolyphaseResampler;
import dev.scorecast.engine.error.InvalidParameter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Sounds with known attack times, made here at 48 kHz and taken through the analyser's own chain
 * (resampled to 16 kHz, then the detector). An onset must be found within 20 ms of each attack,
 * and nothing else.
 */
class OnsetDetectorTest {

    private static final int RATE = 48_000;
    private static final double TOLERANCE_SECONDS = 0.02;

    @Test
    void clicksAtIrregularTimes() {
        double[] times = {0.25, 0.61, 0.9, 1.37, 1.5, 2.02, 2.6, 2.67, 3.3, 3.95};
        float[] x = new float[RATE * 5];
        for (double t : times) {
            x[(int) Math.round(t * RATE)] = 0.9f;
        }
        assertOnsets(times, detect(x));
    }

    @Test
    void clicksOverQuietNoise() {
        double[] times = {0.4, 1.1, 1.35, 2.2, 3.05, 3.5};
        float[] x = noise(RATE * 4, 0.01, 3);
        for (double t : times) {
            burst(x, t, 0.002, 0.8, 11);
        }
        assertOnsets(times, detect(x));
    }

    @Test
    void toneBurstsOfManyPitchesAndLevels() {
        double[] times = {0.3, 0.8, 1.25, 1.9, 2.4, 2.75, 3.4, 4.0};
        double[] hz = {110, 220, 440, 880, 1760, 330, 3000, 660};
        double[] level = {0.5, 0.3, 0.1, 0.5, 0.03, 0.2, 0.1, 0.05};
        float[] x = new float[RATE * 5];
        for (int i = 0; i < times.length; i++) {
            note(x, times[i], 0.3, hz[i], level[i]);
        }
        assertOnsets(times, detect(x));
    }

    @Test
    void overlappingNotesOfAMelody() {
        double[] hz = {262, 294, 330, 349, 392, 440, 494, 523};
        double[] times = new double[hz.length];
        float[] x = new float[RATE * 4];
        for (int i = 0; i < hz.length; i++) {
            times[i] = 0.2 + i * 0.3;
            note(x, times[i], 0.8, hz[i], 0.2); // each note still rings when the next begins
        }
        assertOnsets(times, detect(x));
    }

    @Test
    void steadySoundsHaveNoOnsetsAfterTheirStart() {
        float[] sine = new float[RATE * 6];
        for (int i = 0; i < sine.length; i++) {
            sine[i] = (float) (0.5 * Math.min(1, i / (0.1 * RATE)) * Math.sin(2 * Math.PI * 440 * i / RATE));
        }
        assertTrue(after(detect(sine), 0.2).isEmpty(), "sine " + detect(sine));
        float[] chord = new float[RATE * 6];
        for (int i = 0; i < chord.length; i++) {
            double t = i / (double) RATE;
            double swell = 0.5 + 0.3 * Math.sin(2 * Math.PI * 0.5 * t); // slow, like a pad
            chord[i] = (float) (0.15
                    * swell
                    * (Math.sin(2 * Math.PI * 220 * t)
                            + Math.sin(2 * Math.PI * 277 * t)
                            + Math.sin(2 * Math.PI * 330 * t)));
        }
        assertTrue(after(detect(chord), 0.2).isEmpty(), "chord");
        assertTrue(after(detect(noise(RATE * 20, 0.3, 5)), 0.2).isEmpty(), "steady noise");
        float[] crescendo = new float[RATE * 4];
        for (int i = 0; i < crescendo.length; i++) {
            crescendo[i] = (float) (0.5 * i / crescendo.length * Math.sin(2 * Math.PI * 500 * i / RATE));
        }
        assertTrue(after(detect(crescendo), 0.2).isEmpty(), "crescendo");
    }

    @Test
    void silenceHasNone() {
        assertTrue(detect(new float[RATE * 3]).isEmpty());
        assertTrue(detect(new float[0]).isEmpty());
    }

    @Test
    void blockSizeDoesNotMatter() {
        float[] x = new float[RATE * 3];
        note(x, 0.5, 0.3, 440, 0.3);
        note(x, 1.7, 0.3, 880, 0.3);
        float[] low = PolyphaseResampler.resample(x, RATE, 16_000);
        OnsetDetector whole = new OnsetDetector(16_000);
        whole.accept(low, 0, low.length);
        OnsetDetector pieces = new OnsetDetector(16_000);
        for (int at = 0; at < low.length; at += 77) {
            pieces.accept(low, at, Math.min(77, low.length - at));
        }
        assertEquals(whole.finish(OnsetRules.DEFAULT), pieces.finish(OnsetRules.DEFAULT));
    }

    @Test
    void minimumGapKeepsTheFirstOfTwoCloseHits() {
        float[] flux = new float[100];
        flux[10] = 1;
        flux[13] = 2; // 30 ms later: inside the 50 ms gap
        flux[20] = 1;
        List<Double> onsets = Onsets.pick(flux, flux.length, 0.01, new OnsetRules(0.0, 0.1, 0, 0.05, 0.05));
        assertEquals(
                List.of(0.1, 0.2),
                onsets.stream().map(t -> Math.round(t * 100) / 100.0).toList());
    }

    @Test
    void badParameters() {
        assertThrows(InvalidParameter.class, () -> new OnsetDetector(44_150));
        assertThrows(InvalidParameter.class, () -> new OnsetRules(0.03, 0.1, 3, 0, 0.05));
        assertThrows(InvalidParameter.class, () -> new OnsetRules(-1, 0.1, 3, 0.05, 0.05));
        assertThrows(InvalidParameter.class, () -> Onsets.pick(new float[3], 4, 0.01, OnsetRules.DEFAULT));
        assertThrows(InvalidParameter.class, () -> Onsets.pick(new float[3], 3, 0, OnsetRules.DEFAULT));
    }

    /** 16 kHz, as {@link AudioAnalyzer} feeds it. */
    static List<Double> detect(float[] mono48k) {
        float[] low = PolyphaseResampler.resample(mono48k, RATE, 16_000);
        OnsetDetector d = new OnsetDetector(16_000);
        d.accept(low, 0, low.length);
        return d.finish(OnsetRules.DEFAULT);
    }

    static void assertOnsets(double[] expected, List<Double> found) {
        List<Double> unmatched = new ArrayList<>(found);
        List<Double> missed = new ArrayList<>();
        double worst = 0;
        for (double t : expected) {
            Double nearest = unmatched.stream()
                    .min((a, b) -> Double.compare(Math.abs(a - t), Math.abs(b - t)))
                    .orElse(null);
            if (nearest == null || Math.abs(nearest - t) > TOLERANCE_SECONDS) {
                missed.add(t);
            } else {
                worst = Math.max(worst, Math.abs(nearest - t));
                unmatched.remove(nearest);
            }
        }
        System.out.printf(
                "onsets: %d expected, %d found, worst error %.1f ms, missed %s, extra %s%n",
                expected.length, found.size(), worst * 1000, missed, unmatched);
        assertTrue(
                missed.isEmpty() && unmatched.isEmpty(), "missed " + missed + ", extra " + unmatched + " in " + found);
    }

    private static List<Double> after(List<Double> onsets, double seconds) {
        return onsets.stream().filter(t -> t > seconds).toList();
    }

    /** A plucked tone: 5 ms attack, then an exponential decay to -60 dB over {@code seconds}. */
    private static void note(float[] x, double start, double seconds, double hz, double level) {
        int from = (int) Math.round(start * RATE);
        for (int i = 0; from + i < x.length && i < seconds * RATE * 2; i++) {
            double t = i / (double) RATE;
            double envelope = Math.min(1, t / 0.005) * Math.exp(-t * 6.9 / seconds);
            x[from + i] += (float) (level * envelope * Math.sin(2 * Math.PI * hz * t));
        }
    }

    private static void burst(float[] x, double start, double seconds, double level, long seed) {
        Random random = new Random(seed);
        int from = (int) Math.round(start * RATE);
        for (int i = 0; i < seconds * RATE; i++) {
            x[from + i] += (float) (level * (random.nextDouble() * 2 - 1) * (1 - i / (seconds * RATE)));
        }
    }

    private static float[] noise(int samples, double rms, long seed) {
        Random random = new Random(seed);
        float[] x = new float[samples];
        for (int i = 0; i < samples; i++) {
            x[i] = (float) (rms * random.nextGaussian());
        }
        return x;
    }
}
