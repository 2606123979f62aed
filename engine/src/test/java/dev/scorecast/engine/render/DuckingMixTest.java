package dev.scorecast.engine.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.io.WavEncoding;
import dev.scorecast.engine.io.WavFiles;
import dev.scorecast.engine.io.WavWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ducking measured on the master. espeak-ng speaks at known times over a rendered score; the
 * master is then explained, window by window, as {@code a x music + b x voice} by least squares,
 * where "music" is the master of the same stems mixed alone and "voice" is the voiceover track:
 * the two are nearly uncorrelated, so {@code a} is the music's gain and {@code b} the speech's,
 * even where both sound at once. Timing is measured on a steady tone stem, where the level of
 * every millisecond is exact.
 */
class DuckingMixTest {

    static final int RATE = Mixer.RATE;
    static final double SECONDS = 12;
    static final int WINDOW = 960; // 20 ms
    static final int HOP = 480;

    static SoundBank bank;
    static List<Stem> stems;
    static float[][] musicAlone;
    static float[] voice;
    static Path voiceWav;
    static List<Span> spans = new ArrayList<>();
    static Span gap; // 200 ms between two words

    @BeforeAll
    static void prepare(@TempDir Path dir) {
        bank = SoundBank.load(Fixtures.TIM);
        stems = new Renderer(bank).render(Fixtures.score(SECONDS, 5), dir.resolve("stems"), f -> {});
        Path alone = dir.resolve("music-alone.wav");
        Mixer.master(stems, MixSettings.standard(), alone);
        musicAlone = WavFiles.readAll(alone);

        voice = new float[(int) (SECONDS * RATE)];
        place(dir, "The harbour wakes before the sun.", 1.0);
        Span look = place(dir, "Look.", 4.8);
        Span there = place(dir, "there!", look.end() + 0.2);
        gap = new Span(look.end(), there.start());
        place(dir, "Every boat is coming home.", 8.0);
        voiceWav = dir.resolve("voiceover.wav");
        try (WavWriter w = WavWriter.create(voiceWav, WavEncoding.FLOAT32, RATE, 1)) {
            w.write(new float[][] {voice}, voice.length);
            w.commit();
        }
        System.out.println("speech spans: " + spans);
    }

    @AfterAll
    static void close() {
        bank.close();
    }

    /** Speaks {@code text} so that its first audible sample falls at {@code at} seconds. */
    static Span place(Path dir, String text, double at) {
        float[] s = speak(dir, text);
        int first = 0;
        while (Math.abs(s[first]) < 0.01) {
            first++;
        }
        int last = s.length - 1;
        while (Math.abs(s[last]) < 0.01) {
            last--;
        }
        int offset = (int) Math.round(at * RATE) - first;
        for (int i = first; i <= last; i++) {
            voice[offset + i] += s[i];
        }
        Span span = new Span((offset + first) / (double) RATE, (offset + last + 1) / (double) RATE);
        spans.add(span);
        return span;
    }

    /** espeak-ng at 22.05 kHz, resampled to 48 kHz mono by ffmpeg. */
    static float[] speak(Path dir, String text) {
        Path raw = dir.resolve("espeak-" + Math.abs(text.hashCode()) + ".wav");
        Path up = dir.resolve("speech-" + Math.abs(text.hashCode()) + ".wav");
        Fixtures.run(List.of("espeak-ng", "-w", raw.toString(), text));
        Fixtures.ffmpeg("-i", raw.toString(), "-ar", "48000", "-ac", "1", "-c:a", "pcm_s16le", up.toString());
        return WavFiles.readAll(up)[0];
    }

    @Test
    void musicSitsUnderSpeechAndTheSpeechKeepsItsLevel(@TempDir Path dir) {
        MixSettings base = MixSettings.standard().withVoiceover(voiceWav, 0);
        Path ducked = dir.resolve("ducked.wav");
        MasterReport report = Mixer.master(stems, base.withDucking(Ducking.under(spans)), ducked);
        Path plain = dir.resolve("not-ducked.wav");
        Mixer.master(stems, base.withDucking(Ducking.off()), plain);

        Fit on = fit(WavFiles.readAll(ducked));
        Fit off = fit(WavFiles.readAll(plain));
        double[] expected = DuckingTest.envelope(Ducking.under(spans), SECONDS);
        Levels l = levels(on, expected);
        Levels lOff = levels(off, expected);
        double gapDepth = db(l.musicOutside / median(on.a, window -> inside(window, gap)));
        Fixtures.Ebur128 ff = Fixtures.ebur128(ducked);
        System.out.printf(
                "ducked mix: music %.2f dB under speech (gap between words %.2f dB), no ducking %.2f dB; "
                        + "speech %.2f dB over the unducked music (ducking off: %.2f dB; per line %s vs %s, largest difference %.2f dB); "
                        + "speech-to-music during speech %.1f dB; ours %.2f LUFS %.2f dBTP, ffmpeg %.2f LUFS %.2f dBTP%n",
                l.depth(),
                gapDepth,
                lOff.depth(),
                l.speechOverMusic(),
                lOff.speechOverMusic(),
                format(l.linesOverMusic()),
                format(lOff.linesOverMusic()),
                largestLineDifference(l, lOff),
                speechToMusic(on, expected),
                report.integratedLufs(),
                report.truePeakDbtp(),
                ff.integratedLufs(),
                ff.truePeakDbtp());
        assertTrue(l.depth() >= 8 && l.depth() <= 12, "depth " + l.depth());
        assertTrue(gapDepth >= 8, "the 200 ms gap between words stays down: " + gapDepth);
        assertTrue(Math.abs(lOff.depth()) < 1, "no ducking when off: " + lOff.depth());
        // The speech is not ducked: line by line, relative to the music where nobody speaks, it is
        // where it is without ducking (the limiter, which sees both, is the only difference).
        assertEquals(lOff.speechOverMusic(), l.speechOverMusic(), 1.0);
        assertTrue(largestLineDifference(l, lOff) < 1.0, "speech level per line, ducked vs not");
        assertEquals(-14, ff.integratedLufs(), 1.0);
        assertTrue(ff.truePeakDbtp() <= -1.0, "ffmpeg true peak " + ff.truePeakDbtp());
        assertEquals(0, MixerTest.fullScaleSamples(WavFiles.readAll(ducked)));
        Fixtures.run(List.of(
                "sox",
                ducked.toString(),
                "-n",
                "spectrogram",
                "-t",
                "ducked under espeak-ng speech",
                "-o",
                "/tmp/scorecast-ducked-spectrogram.png"));
        Fixtures.run(List.of(
                "sox",
                plain.toString(),
                "-n",
                "spectrogram",
                "-t",
                "not ducked",
                "-o",
                "/tmp/scorecast-not-ducked-spectrogram.png"));
    }

    @Test
    void dialogueFromTheOriginalAudioIsLevelledAndNotDucked(@TempDir Path dir) {
        // The video's own sound as the extractor writes it: 16-bit stereo, quiet (-20 dB), so the levelling shows.
        Path original = dir.resolve("original.wav");
        Fixtures.ffmpeg(
                "-i", voiceWav.toString(), "-af", "volume=-20dB", "-ac", "2", "-c:a", "pcm_s16le", original.toString());
        Path master = dir.resolve("dialogue.wav");
        MasterReport report = Mixer.master(
                stems,
                MixSettings.standard()
                        .withOriginalAudio(original, MixSettings.OriginalAudioRole.DIALOGUE, 0)
                        .withDucking(Ducking.under(spans)),
                master);
        Fit fit = fit(WavFiles.readAll(master));
        Levels l = levels(fit, DuckingTest.envelope(Ducking.under(spans), SECONDS));
        // Levelled by loudness: the mixer's gain undoes the -20 dB, so the fit against the voice at
        // its own level finds the speech about as loud over the music as the voiceover was.
        double speechOverMusic = l.speechOverMusic();
        Fixtures.Ebur128 ff = Fixtures.ebur128(master);
        System.out.printf(
                "dialogue: music %.2f dB under speech; speech %.2f dB over the unducked music (per line %s); %.2f LUFS %.2f dBTP%n",
                l.depth(), speechOverMusic, format(l.linesOverMusic()), ff.integratedLufs(), ff.truePeakDbtp());
        assertTrue(l.depth() >= 8, "depth " + l.depth());
        assertTrue(speechOverMusic > -3 && speechOverMusic < 6, "speech over music " + speechOverMusic);
        assertEquals(-14, report.integratedLufs(), 1.0);
        assertEquals(-14, ff.integratedLufs(), 1.0);
        assertTrue(ff.truePeakDbtp() <= -1.0);
    }

    @Test
    void aSteadyToneShowsTheAttackReleaseAndNoPumping(@TempDir Path dir) {
        int n = (int) (SECONDS * RATE);
        float[][] tone = new float[2][n];
        for (int i = 0; i < n; i++) {
            tone[0][i] = tone[1][i] = (float) (0.25 * Math.sin(2 * Math.PI * 1000 * i / RATE));
        }
        Path toneWav = dir.resolve("tone.wav");
        try (WavWriter w = WavWriter.create(toneWav, WavEncoding.FLOAT32, RATE, 2)) {
            w.write(tone, n);
            w.commit();
        }
        Path master = dir.resolve("tone-master.wav");
        Ducking ducking = Ducking.under(spans);
        Mixer.master(
                List.of(new Stem(InstrumentGroup.PADS, toneWav, -12)),
                MixSettings.standard().withDucking(ducking),
                master);
        double[] level = levelPerMs(WavFiles.readAll(master)[0]);
        double full = median(level, 200, 800);
        Span first = spans.getFirst();
        Span last = spans.getLast();
        int s = (int) Math.round(first.start() * 1000);
        int e = (int) Math.round(last.end() * 1000);
        double down = median(level, s + 50, s + 500);
        double attack = crossing(level, s - 400, s, full, down, 0.9) - crossing(level, s - 400, s, full, down, 0.1);
        double release = crossing(level, e, e + 1200, down, full, 0.9) - crossing(level, e, e + 1200, down, full, 0.1);
        int g0 = (int) Math.ceil(gap.start() * 1000);
        int g1 = (int) Math.floor(gap.end() * 1000) - 1;
        double gapMax = Arrays.stream(level, g0, g1).max().orElseThrow() - full;
        // Where nobody speaks, nothing moves: before the first ramp and after the last one.
        double[] quiet = Arrays.copyOfRange(level, 100, s - 200);
        double pump = Arrays.stream(quiet).max().orElseThrow()
                - Arrays.stream(quiet).min().orElseThrow();
        double[] tail = Arrays.copyOfRange(level, e + 800, (int) (SECONDS * 1000) - 50);
        double tailPump = Arrays.stream(tail).max().orElseThrow()
                - Arrays.stream(tail).min().orElseThrow();
        System.out.printf(
                "tone: depth %.2f dB, attack 10-90 %.0f ms (down by %.2f dB at the first word), release 10-90 %.0f ms, "
                        + "highest level in the 200 ms gap %.2f dB, level spread outside speech %.3f / %.3f dB%n",
                full - down, attack, full - level[s], release, gapMax, pump, tailPump);
        assertTrue(full - down >= 8, "depth " + (full - down));
        assertTrue(attack >= 50 && attack <= 150, "attack " + attack);
        assertTrue(release >= 300 && release <= 600, "release " + release);
        assertTrue(full - level[s] >= 7.5, "already down when speech starts: " + (full - level[s]));
        assertTrue(gapMax <= -8, "stays down between close words: " + gapMax);
        assertTrue(pump < 0.1 && tailPump < 0.1, "no pumping outside speech: " + pump + ", " + tailPump);
    }

    // ---- measuring ----

    /** Per window: music gain a, speech gain b (NaN where the voice is silent), and the two references' RMS. */
    record Fit(double[] a, double[] b, double[] voiceRms, double[] musicRms) {}

    static Fit fit(float[][] master) {
        int windows = (musicAlone[0].length - WINDOW) / HOP;
        double[] a = new double[windows];
        double[] b = new double[windows];
        double[] vr = new double[windows];
        double[] mr = new double[windows];
        for (int w = 0; w < windows; w++) {
            double rr = 0, rv = 0, vv = 0, mrr = 0, mv = 0;
            for (int c = 0; c < 2; c++) {
                for (int i = w * HOP; i < w * HOP + WINDOW; i++) {
                    double r = musicAlone[c][i];
                    double v = voice[i];
                    double m = master[c][i];
                    rr += r * r;
                    rv += r * v;
                    vv += v * v;
                    mrr += m * r;
                    mv += m * v;
                }
            }
            if (vv < 1e-9 * rr) {
                a[w] = mrr / rr;
                b[w] = Double.NaN;
            } else {
                double det = rr * vv - rv * rv;
                a[w] = (mrr * vv - mv * rv) / det;
                b[w] = (rr * mv - rv * mrr) / det;
            }
            vr[w] = Math.sqrt(vv / (2 * WINDOW));
            mr[w] = Math.sqrt(rr / (2 * WINDOW));
        }
        return new Fit(a, b, vr, mr);
    }

    /** Medians of the music gain where the envelope is 1 and where it is fully down, and of the speech gain, overall and per line. */
    record Levels(double musicOutside, double musicInside, double speech, double[] lines) {
        double depth() {
            return db(musicOutside / musicInside);
        }

        double speechOverMusic() {
            return db(speech / musicOutside);
        }

        /** Each line's speech over the unducked music, dB. */
        double[] linesOverMusic() {
            return Arrays.stream(lines).map(b -> db(b / musicOutside)).toArray();
        }
    }

    static Levels levels(Fit f, double[] envelope) {
        double floor = Arrays.stream(envelope).min().orElseThrow();
        double outside = median(f.a, w -> all(envelope, w, 1.0));
        double inside = median(f.a, w -> all(envelope, w, floor));
        double speech = median(f.b, w -> inSpeech(w) && f.voiceRms[w] > 0.02);
        double[] lines = spans.stream()
                .mapToDouble(s -> median(f.b, w -> inside(w, s) && f.voiceRms[w] > 0.02))
                .toArray();
        return new Levels(outside, inside, speech, lines);
    }

    /** The largest difference, line by line, between two mixes' speech over their unducked music, dB. */
    static double largestLineDifference(Levels x, Levels y) {
        double[] a = x.linesOverMusic();
        double[] b = y.linesOverMusic();
        double worst = 0;
        for (int i = 0; i < a.length; i++) {
            worst = Math.max(worst, Math.abs(a[i] - b[i]));
        }
        return worst;
    }

    /** The voice's power over the music's, where someone speaks, in the mix. */
    static double speechToMusic(Fit f, double[] envelope) {
        double sp = 0;
        double mu = 0;
        for (int w = 0; w < f.a.length; w++) {
            if (inSpeech(w) && !Double.isNaN(f.b[w])) {
                sp += Math.pow(f.b[w] * f.voiceRms[w], 2);
                mu += Math.pow(f.a[w] * f.musicRms[w], 2);
            }
        }
        return 10 * Math.log10(sp / mu);
    }

    static boolean inSpeech(int w) {
        return spans.stream().anyMatch(s -> inside(w, s));
    }

    static boolean inside(int w, Span s) {
        return w * HOP >= s.start() * RATE && w * HOP + WINDOW <= s.end() * RATE;
    }

    static boolean all(double[] envelope, int w, double value) {
        for (int i = w * HOP; i < w * HOP + WINDOW; i++) {
            if (Math.abs(envelope[i] - value) > 1e-6) {
                return false;
            }
        }
        return true;
    }

    static double median(double[] x, IntPredicate take) {
        double[] v = IntStream.range(0, x.length)
                .filter(take)
                .mapToDouble(i -> x[i])
                .filter(d -> !Double.isNaN(d))
                .sorted()
                .toArray();
        if (v.length == 0) {
            throw new IllegalStateException("no windows to measure");
        }
        return v[v.length / 2];
    }

    static double median(double[] x, int from, int to) {
        double[] v = Arrays.copyOfRange(x, from, to);
        Arrays.sort(v);
        return v[v.length / 2];
    }

    /** dB of the RMS of each millisecond: exactly one cycle of the 1 kHz tone. */
    static double[] levelPerMs(float[] x) {
        double[] out = new double[x.length / 48];
        for (int ms = 0; ms < out.length; ms++) {
            double sum = 0;
            for (int i = ms * 48; i < ms * 48 + 48; i++) {
                sum += x[i] * (double) x[i];
            }
            out[ms] = 10 * Math.log10(sum / 48 + 1e-20);
        }
        return out;
    }

    /** The first millisecond in {@code [from, to)} where the level has moved {@code fraction} of the way from {@code a} to {@code b}. */
    static double crossing(double[] level, int from, int to, double a, double b, double fraction) {
        for (int ms = from; ms < to; ms++) {
            if ((level[ms] - a) / (b - a) >= fraction) {
                return ms;
            }
        }
        throw new IllegalStateException("no " + fraction + " crossing in " + from + ".." + to + " ms");
    }

    static String format(double[] dbs) {
        return Arrays.stream(dbs)
                .mapToObj(d -> String.format("%.1f", d))
                .toList()
                .toString();
    }

    static double db(double ratio) {
        return 20 * Math.log10(ratio);
    }
}
