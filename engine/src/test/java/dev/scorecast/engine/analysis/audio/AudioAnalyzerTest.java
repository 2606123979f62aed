package dev.scorecast.engine.analysis.audio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.analysis.AudioAnalysis;
import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.dsp.Loudness;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.UnsupportedMedia;
import dev.scorecast.engine.media.AudioExtractor;
import dev.scorecast.engine.media.AudioTrack;
import dev.scorecast.engine.voice.speech.SileroSpeechDetector;
import dev.scorecast.engine.voice.speech.SpeechDetector;
import dev.scorecast.engine.voice.speech.SpeechPass;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AudioAnalyzerTest {

    private static final int RATE = 48_000;

    @TempDir
    static Path dir;

    /** Hears nothing, and counts the 16 kHz samples it was given. */
    static final class Deaf implements SpeechDetector {
        final AtomicLong samples = new AtomicLong();

        @Override
        public SpeechPass open() {
            return new SpeechPass() {
                @Override
                public void accept(float[] s, int offset, int length) {
                    samples.addAndGet(length);
                }

                @Override
                public List<Span> finish() {
                    return List.of();
                }

                @Override
                public void close() {}
            };
        }
    }

    @Test
    void silenceHasNoLoudnessNoPeakNoOnsets() {
        Path wav = AudioFixtures.lavfi(dir.resolve("silence.wav"), "anullsrc=r=48000:cl=stereo", 3.05);
        Deaf deaf = new Deaf();
        AudioAnalysis a = new AudioAnalyzer(deaf).analyze(wav);
        assertNull(a.integratedLufs());
        assertEquals(Double.NEGATIVE_INFINITY, a.truePeakDbtp());
        assertEquals(List.of(), a.speech());
        assertEquals(List.of(), a.onsets());
        assertEquals(0.1, a.hop());
        assertEquals(31, a.loudness().length, "one value per started 100 ms");
        assertArrayEquals(new double[31], a.loudness());
        assertEquals(Math.ceil(3.05 * RATE / 3), deaf.samples.get(), 1, "the detector hears all of it at 16 kHz");
    }

    @Test
    void anEmptyFileGivesAnEmptyAnalysis() {
        Path wav = AudioFixtures.write(dir.resolve("empty.wav"), RATE, new float[0], new float[0]);
        AudioAnalysis a = new AudioAnalyzer(new Deaf()).analyze(wav);
        assertNull(a.integratedLufs());
        assertEquals(0, a.loudness().length);
        assertEquals(List.of(), a.onsets());
    }

    @Test
    void theLoudnessCurveFollowsTheSound() {
        float[] x = new float[RATE * 6];
        for (int i = 2 * RATE; i < 4 * RATE; i++) {
            double release = Math.min(1, (4 * RATE - i) / (0.02 * RATE)); // so that its end is no click
            x[i] = (float) (0.1 * release * Math.sin(2 * Math.PI * 1000 * i / RATE));
        }
        Path wav = AudioFixtures.write(dir.resolve("tone.wav"), RATE, x, x);
        AudioAnalysis a = new AudioAnalyzer(new Deaf()).analyze(wav);
        assertEquals(60, a.loudness().length);
        // A -20 dBFS 1 kHz sine in both channels is -20.0 LUFS (K-weighting adds 0.7 dB at 1 kHz, two
        // channels 3 dB). Integrated reads 0.6 lower: the six blocks that straddle the tone's ends pass the gates.
        double expected = Loudness.unitScale(-20.0);
        assertEquals(-20.6, a.integratedLufs(), 0.1);
        for (int i = 0; i < 60; i++) {
            double v = a.loudness()[i];
            if (i < 18 || i > 40) { // the window of step i spans steps i - 1 .. i + 2
                assertEquals(0, v, 1e-9, "step " + i);
            } else if (i >= 21 && i <= 37) {
                assertEquals(expected, v, 0.01, "step " + i);
            }
        }
        assertEquals(
                List.of(2.0),
                a.onsets().stream().map(t -> Math.round(t * 50) / 50.0).toList());
    }

    @Test
    void onsetsOfClicksComeThroughTheWholeChain() {
        double[] times = {0.5, 1.25, 1.9, 2.3, 3.1};
        float[] x = new float[RATE * 4];
        for (double t : times) {
            x[(int) Math.round(t * RATE)] = 0.8f;
        }
        Path wav = AudioFixtures.write(dir.resolve("clicks.wav"), RATE, x, x);
        OnsetDetectorTest.assertOnsets(
                times, new AudioAnalyzer(new Deaf()).analyze(wav).onsets());
    }

    @Test
    void monoAndOtherRatesAreRead() {
        Path mono = AudioFixtures.lavfi(dir.resolve("x.wav"), "sine=f=500:r=48000", 2);
        Path mono44 = AudioFixtures.ffmpeg(
                dir.resolve("mono44.wav"), "-i", mono.toString(), "-ac", "1", "-ar", "44100", "-c:a", "pcm_s16le");
        Deaf deaf = new Deaf();
        AudioAnalysis a = new AudioAnalyzer(deaf).analyze(mono44);
        AudioAnalysis b = new AudioAnalyzer(new Deaf()).analyze(mono);
        assertNotNull(a.integratedLufs());
        assertEquals(b.integratedLufs() - 3.01, a.integratedLufs(), 0.1, "one channel of two");
        assertEquals(2 * 16_000, deaf.samples.get(), 2);
    }

    @Test
    void notA16BitWavIsUnsupportedMedia() throws IOException {
        Path text = Files.writeString(dir.resolve("notes.wav"), "hello");
        assertThrows(UnsupportedMedia.class, () -> new AudioAnalyzer(new Deaf()).analyze(text));
        Path float32 = AudioFixtures.lavfi(dir.resolve("f32.wav"), "sine", 1);
        Path converted = AudioFixtures.ffmpeg(dir.resolve("f32b.wav"), "-i", float32.toString(), "-c:a", "pcm_f32le");
        assertThrows(UnsupportedMedia.class, () -> new AudioAnalyzer(new Deaf()).analyze(converted));
        Path truncated = dir.resolve("truncated.wav");
        Files.write(truncated, Arrays.copyOf(Files.readAllBytes(float32), 30));
        assertThrows(UnsupportedMedia.class, () -> new AudioAnalyzer(new Deaf()).analyze(truncated));
    }

    @Test
    void aTruncatedDataChunkIsReadAsFarAsItGoes() throws IOException {
        Path whole = AudioFixtures.lavfi(dir.resolve("whole.wav"), "sine=f=440:r=48000", 2);
        byte[] bytes = Files.readAllBytes(whole);
        Path cut = Files.write(dir.resolve("cut.wav"), Arrays.copyOf(bytes, bytes.length / 2 + 1));
        AudioAnalysis a = new AudioAnalyzer(new Deaf()).analyze(cut);
        assertEquals(10, a.loudness().length, 1);
    }

    @Test
    void analysesTheExtractorsOutputWithSpeech() {
        Path speech = AudioFixtures.speak(dir.resolve("say.wav"), "en", "This video has a voice over.");
        Path video = AudioFixtures.ffmpeg(
                dir.resolve("talk.mp4"),
                "-f",
                "lavfi",
                "-i",
                "testsrc2=size=160x120:rate=25",
                "-i",
                speech.toString(),
                "-af",
                "adelay=1500",
                "-t",
                "5",
                "-c:v",
                "libx264",
                "-pix_fmt",
                "yuv420p",
                "-c:a",
                "aac");
        AudioTrack track =
                AudioExtractor.extractWav(video, dir.resolve("talk.wav")).orElseThrow();
        Span truth = AudioFixtures.audibleExtent(speech);
        try (SileroSpeechDetector silero = SileroSpeechDetector.load()) {
            AudioAnalysis a = new AudioAnalyzer(silero).analyze(track.wav());
            assertEquals(1, a.speech().size(), a.speech().toString());
            assertEquals(1.5 + truth.start(), a.speech().getFirst().start(), 0.3);
            assertEquals(1.5 + truth.end(), a.speech().getFirst().end(), 0.3);
            assertNotNull(a.integratedLufs());
        }
    }

    @Test
    void oneAnalyserServesManyThreads() throws Exception {
        List<Path> files = List.of(
                AudioFixtures.lavfi(dir.resolve("t1.wav"), "sine=f=300:r=48000", 3),
                AudioFixtures.lavfi(dir.resolve("t2.wav"), "anoisesrc=c=pink:a=0.2:r=48000:seed=3", 3),
                AudioFixtures.lavfi(
                        dir.resolve("t3.wav"), "aevalsrc=0.5*sin(2*PI*220*t)*lt(mod(t\\,0.5)\\,0.1):s=48000", 3));
        try (SileroSpeechDetector silero = SileroSpeechDetector.load()) {
            AudioAnalyzer analyzer = new AudioAnalyzer(silero);
            List<AudioAnalysis> expected = files.stream().map(analyzer::analyze).toList();
            try (ExecutorService pool = Executors.newFixedThreadPool(3)) {
                List<Future<AudioAnalysis>> results = new ArrayList<>();
                for (int round = 0; round < 3; round++) {
                    for (Path f : files) {
                        results.add(pool.submit(() -> analyzer.analyze(f)));
                    }
                }
                for (int i = 0; i < results.size(); i++) {
                    AudioAnalysis got = results.get(i).get();
                    AudioAnalysis want = expected.get(i % files.size());
                    assertEquals(want.integratedLufs(), got.integratedLufs());
                    assertEquals(want.onsets(), got.onsets());
                    assertEquals(want.speech(), got.speech());
                    assertArrayEquals(want.loudness(), got.loudness());
                }
            }
        }
    }

    @Test
    void tooManyChannelsAreRefusedBeforeAnyWork() {
        Path six = AudioFixtures.ffmpeg(
                dir.resolve("six.wav"), "-f", "lavfi", "-i", "sine", "-t", "1", "-ac", "6", "-c:a", "pcm_s16le");
        assertThrows(InvalidParameter.class, () -> new AudioAnalyzer(new Deaf()).analyze(six));
        assertTrue(Files.exists(six));
    }
}
