package dev.scorecast.engine.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.music.Composer;
import dev.scorecast.engine.pipeline.VocalPitch;
import dev.scorecast.engine.voice.singing.EspeakSinger;
import dev.scorecast.engine.voice.singing.SungNote;
import dev.scorecast.engine.voice.singing.Vocal;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import javax.sound.sampled.AudioFileFormat;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioInputStream;
import javax.sound.sampled.AudioSystem;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Live vocals on real audio. Two performances of one experience started alike play the same
 * samples, so one with vocals on minus one with vocals off is exactly what the voice added: that
 * difference is checked for where each line starts (against the beat of its first note), for
 * pitch (YIN against the notes, as the sync pipeline measures its vocal stem) and for silence
 * where the voice must not be. Time is virtual: the test renders block by block and, between
 * blocks, lets the singer sing what was asked for (a singer that keeps up) or not at all.
 */
class LiveVocalsTest {
    static final Path OUT = Path.of("target", "live-vocals");
    static final String EXPERIENCE = "pop-sunny-side"; // 110 bpm, an 8-bar intro of four two-bar lines
    static LiveContext context;
    static AtomicLong clock = new AtomicLong();
    static PhraseSinger singer;
    static EspeakSinger espeak;

    @BeforeAll
    static void open() {
        espeak = EspeakSinger.create();
        singer = new PhraseSinger(() -> espeak, clock::get, PhraseSinger.DEFAULT_CACHE_SAMPLES);
        context = LiveHarness.context()
                .withSettings(LiveHarness.BY_HAND.withPolyphony(48))
                .withSinger(singer)
                .build();
    }

    /** Performance A with vocals, B without, turned together; the singer keeps up unless told not to. */
    static final class Twins {
        BlockRun a;
        BlockRun b;
        final PhraseSinger phrases;
        boolean singing = true;

        Twins(LiveContext context) {
            phrases = context.phrases();
            Experience e = context.experiences().find(EXPERIENCE).orElseThrow();
            a = new BlockRun(context);
            b = new BlockRun(context);
            a.send(new Control.Start(e, 0.5, true, new CompletableFuture<>()));
            b.send(new Control.Start(e, 0.5, false, new CompletableFuture<>()));
        }

        void turn() throws InterruptedException {
            a.turn();
            b.turn();
            clock.set(a.nextDue());
            if (singing) {
                phrases.singAll();
            }
        }

        void untilBeat(double beat) throws InterruptedException {
            while (a.beat() < beat) {
                turn();
            }
        }

        void send(Control control) {
            a.send(control);
            b.send(control);
        }

        /** What the voice added: A minus B. */
        float[] voice() {
            float[] x = a.left();
            float[] y = b.left();
            float[] d = new float[Math.min(x.length, y.length)];
            for (int i = 0; i < d.length; i++) {
                d[i] = x[i] - y[i];
            }
            return d;
        }
    }

    /** The lines of the first section, composed again from what the performance says it plays. */
    static List<VocalPhrase> firstSectionLines(BlockRun run) {
        NowPlaying now = run.performance.now();
        return SectionScore.compose(
                        new Composer(), now.genre(), now.experience().seed(), now.section(), now.upcoming(), 0, 0)
                .phrases();
    }

    @Test
    void theSungLineStartsOnTheBeatOfItsFirstNoteAndFollowsItsNotesAcrossATempoChange() throws Exception {
        long skippedBefore = singer.counters().skipped();
        Twins t = new Twins(context);
        t.turn();
        List<VocalPhrase> lines = firstSectionLines(t.a);
        assertTrue(lines.size() >= 4, "four lines in the intro: " + lines.size());
        // Line 2 plays at 110 bpm; during it, intensity 1.0 glides the tempo to 132 bpm, and line 3 must follow.
        t.untilBeat(lines.get(1).startBeat() + 2);
        t.send(new Control.SetIntensity(1.0));
        t.untilBeat(lines.get(2).endBeat() + 1);
        float[] voice = t.voice();
        write("voice.wav", voice);
        write("mix.wav", t.a.left());

        // The first line was needed at once when the music started: skipped, so silent, and counted.
        VocalPhrase first = lines.getFirst();
        assertTrue(singer.counters().skipped() > skippedBefore, "the first line was skipped");
        double silentRms = rms(voice, 0, (int) t.a.frameOf(first.endBeat()));
        assertEquals(0, silentRms, 1e-6, "nothing sounds where the first line would have been");

        VocalPitch all = new VocalPitch(0, 0, 0);
        for (int k = 1; k <= 2; k++) {
            VocalPhrase line = lines.get(k);
            double bpm = k == 1 ? 110 : 132;
            List<SungNote> notes = line.at(bpm);
            double expected = t.a.frameOf(line.startBeat());
            int lag = lag(voice, (int) Math.round(expected), espeak.sing(notes), 0);
            VocalPitch pitch = VocalPitch.measure(
                    Arrays.copyOfRange(voice, (int) Math.round(expected), voice.length), Performance.RATE, notes);
            VocalPitch dry = VocalPitch.measure(espeak.sing(notes).samples(), Performance.RATE, notes);
            double level = rms(voice, (int) expected, (int) t.a.frameOf(line.endBeat()));
            System.out.printf(
                    "live vocals: line %d at beat %.0f (%.0f bpm): starts %+.2f ms from its beat; %d of %d voiced frames within"
                            + " 50 cents (%.1f %%; the singer's own output %.1f %%); rms %.1f dBFS%n",
                    k + 1,
                    line.startBeat(),
                    bpm,
                    lag * 1000.0 / Performance.RATE,
                    pitch.withinFiftyCents(),
                    pitch.voicedFrames(),
                    100 * pitch.accuracy(),
                    100 * dry.accuracy(),
                    20 * Math.log10(level));
            assertTrue(Math.abs(lag) <= 48 * 3, "line " + (k + 1) + " starts " + lag + " frames off its beat");
            assertTrue(pitch.voicedFrames() > 20, "line " + (k + 1) + " is sung: " + pitch);
            assertTrue(pitch.accuracy() >= 0.75, "line " + (k + 1) + " on pitch: " + pitch);
            assertTrue(level > 0.01, "line " + (k + 1) + " audible: rms " + level);
            all = new VocalPitch(
                    all.voicedFrames() + pitch.voicedFrames(),
                    all.withinFiftyCents() + pitch.withinFiftyCents(),
                    all.voicedOutsideNotes() + pitch.voicedOutsideNotes());
        }
        // The sync pipeline's goal for its vocal stem, over the whole line sung.
        assertTrue(all.accuracy() >= 0.8, "the sung lines on pitch: " + all);
    }

    @Test
    void vocalsTurnedOffFallSilentAtTheNextBarLine() throws Exception {
        Twins t = new Twins(context);
        t.turn();
        List<VocalPhrase> lines = firstSectionLines(t.a);
        t.untilBeat(lines.get(1).startBeat() + 1.5); // inside line 2, which holds on past the next bar line
        var applied = new CompletableFuture<AppliesAt>();
        t.a.send(new Control.SetVocals(false, applied));
        t.turn();
        AppliesAt at = applied.getNow(null);
        t.untilBeat(lines.get(2).endBeat());
        double barLine = t.a.frameOf(at.beat());
        float[] voice = t.voice();
        int bar = (int) Math.round(barLine);
        double before = rms(voice, bar - 4800, bar);
        double after = peakDb(voice, bar + LiveVocals.FADE_FRAMES + 48, voice.length)
                - 20 * Math.log10(peak(voice, bar - 4800, bar));
        double nextLine = rms(voice, (int) t.a.frameOf(lines.get(2).startBeat()), voice.length);
        System.out.printf(
                "live vocals: off at bar line frame %d (beat %.0f): rms %.1f dBFS in the 100 ms before; after the %d ms fade"
                        + " only the reverb, peak %.1f dB under the voice's; the next line: rms %.1f dBFS%n",
                bar,
                at.beat(),
                20 * Math.log10(before),
                LiveVocals.FADE_FRAMES / 48,
                -after,
                20 * Math.log10(nextLine + 1e-12));
        assertTrue(
                at.beat() > lines.get(1).startBeat() && at.beat() < lines.get(1).endBeat(),
                "the bar line falls inside line 2");
        assertTrue(before > 0.01, "the voice sang up to the bar line: " + before);
        assertTrue(after < -12, "after the bar line only the reverb's tail is left: " + after + " dB");
        assertTrue(nextLine < 0.002, "the next line is not sung: rms " + nextLine);
    }

    @Test
    void aLineTheSingerDidNotSingInTimeIsSkippedAndNothingTakesItsPlace() throws Exception {
        PhraseSinger idle = new PhraseSinger(() -> espeak, clock::get, PhraseSinger.DEFAULT_CACHE_SAMPLES);
        LiveContext slow = LiveHarness.context()
                .withSettings(context.settings())
                .withSinger(idle)
                .build();
        Twins t = new Twins(slow);
        t.singing = false;
        t.turn();
        List<VocalPhrase> lines = firstSectionLines(t.a);
        t.untilBeat(lines.get(1).endBeat());
        double beat = t.a.beat();
        long inTime = lines.stream()
                .filter(l -> l.startBeat() > beat && l.startBeat() <= beat + LiveVocals.HORIZON_SECONDS * 110 / 60)
                .count();
        float[] voice = t.voice();
        var stalled = idle.counters();
        // The singer wakes up: the skipped line is wanted by no one any more, so only the next one (still in time) is
        // sung.
        idle.singAll();
        var woke = idle.counters();
        System.out.printf(
                "live vocals, singer stalled: %d lines skipped; when it wakes it sings %d (the lines still to come)%n",
                stalled.skipped(), woke.sung());
        assertEquals(0, peak(voice, 0, voice.length), "with nothing sung, vocals on sound exactly like vocals off");
        assertEquals(2, stalled.skipped(), "both lines were due and skipped");
        assertEquals(0, stalled.sung());
        assertEquals(inTime, woke.sung(), "a skipped line is not sung late, the lines to come are");
    }

    @Test
    void aForkCarriesTheSoundingLineAndTheLinesToCome() throws Exception {
        Twins t = new Twins(context);
        t.turn();
        List<VocalPhrase> lines = firstSectionLines(t.a);
        t.untilBeat(lines.get(1).startBeat() + 3);
        // Both fork at the same block, so they stay alike but for the voice.
        BlockRun a = t.a.fork();
        BlockRun b = t.b.fork();
        t.a = a;
        t.b = b;
        long forkFrame = a.frame();
        t.untilBeat(lines.get(2).startBeat() + 4);
        float[] voice = t.voice();
        int second = (int) Math.round(a.frameOf(lines.get(1).startBeat()));
        int third = (int) Math.round(a.frameOf(lines.get(2).startBeat()));
        // Line 2 after the fork is the sung line from the sample it had reached: it sits where it sat before.
        Vocal sung2 = espeak.sing(lines.get(1).at(110));
        int carriedLag = lag(voice, (int) forkFrame, sung2, (int) forkFrame - second) - lag(voice, second, sung2, 0);
        int lag = lag(voice, third, espeak.sing(lines.get(2).at(110)), 0);
        double carried = rms(voice, (int) forkFrame, (int) forkFrame + 9600);
        System.out.printf(
                "live vocals, fork at frame %d: line 2 carries on (rms %.1f dBFS, %+.2f ms off where it sat before);"
                        + " line 3 starts %+.2f ms from its beat%n",
                forkFrame, 20 * Math.log10(carried), carriedLag / 48.0, lag / 48.0);
        assertTrue(carried > 0.01, "the line sounding at the fork carries on: " + carried);
        assertTrue(Math.abs(carriedLag) <= 2, "from the sample it had reached: " + carriedLag);
        assertTrue(Math.abs(lag) <= 48 * 3, "the next line starts on its beat after the fork: " + lag);
    }

    /**
     * Where {@code sung}, from its sample {@code from}, sits in {@code voice} relative to
     * {@code at}: the lag (frames, within +-50 ms) at which half a second of them correlates best.
     */
    static int lag(float[] voice, int at, Vocal sung, int from) {
        float[] s = sung.samples();
        int len = Math.min(s.length - from, Performance.RATE / 2);
        int best = 0;
        double bestScore = Double.NEGATIVE_INFINITY;
        for (int lag = -2400; lag <= 2400; lag++) {
            double sum = 0;
            for (int i = 0; i < len; i++) {
                int j = at + lag + i;
                if (j >= 0 && j < voice.length) {
                    sum += s[from + i] * voice[j];
                }
            }
            if (sum > bestScore) {
                bestScore = sum;
                best = lag;
            }
        }
        return best;
    }

    static double rms(float[] x, int from, int to) {
        double sum = 0;
        for (int i = Math.max(0, from); i < Math.min(to, x.length); i++) {
            sum += x[i] * x[i];
        }
        return Math.sqrt(sum / Math.max(1, to - from));
    }

    static double peak(float[] x, int from, int to) {
        double p = 0;
        for (int i = Math.max(0, from); i < Math.min(to, x.length); i++) {
            p = Math.max(p, Math.abs(x[i]));
        }
        return p;
    }

    static double peakDb(float[] x, int from, int to) {
        return 20 * Math.log10(peak(x, from, to) + 1e-12);
    }

    static void write(String name, float[] x) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(x.length * 2).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : x) {
            b.putShort((short) Math.round(Math.clamp(v, -1, 1) * 32767));
        }
        Files.createDirectories(OUT);
        try (AudioInputStream in = new AudioInputStream(
                new ByteArrayInputStream(b.array()), new AudioFormat(Performance.RATE, 16, 1, true, false), x.length)) {
            AudioSystem.write(in, AudioFileFormat.Type.WAVE, OUT.resolve(name).toFile());
        }
    }
}
