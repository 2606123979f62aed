package dev.scorecast.engine.voice.speech;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.core.Span;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Needs the model: bin/test fetches it, and the POM points {@code scorecast.vad.model} at it. */
class SileroSpeechDetectorTest {

    private static final int RATE = SpeechDetector.SAMPLE_RATE_HZ;

    @TempDir
    static Path dir;

    static SileroSpeechDetector detector;
    static float[] sentence; // espeak-ng, 16 kHz
    static Span sentenceExtent;

    @BeforeAll
    static void load() throws Exception {
        detector = SileroSpeechDetector.load();
        sentence = speak("Every upload gets its own soundtrack, scored to the cuts of the picture.");
        sentenceExtent = audible(sentence);
    }

    @AfterAll
    static void close() {
        detector.close();
    }

    @Test
    void findsASentenceWhereItIs() {
        float[] x = new float[RATE * 8];
        int at = (int) (2.5 * RATE);
        System.arraycopy(sentence, 0, x, at, sentence.length);
        List<Span> spans = detector.detect(x);
        assertEquals(1, spans.size(), spans.toString());
        assertEquals(2.5 + sentenceExtent.start(), spans.getFirst().start(), 0.3);
        assertEquals(2.5 + sentenceExtent.end(), spans.getFirst().end(), 0.3);
    }

    @Test
    void silenceAndNoiseAreNotSpeech() {
        assertEquals(List.of(), detector.detect(new float[RATE * 5]));
        assertEquals(List.of(), detector.detect(new float[0]));
        assertEquals(List.of(), detector.detect(new float[100]));
        Random random = new Random(9);
        float[] hiss = new float[RATE * 5];
        for (int i = 0; i < hiss.length; i++) {
            hiss[i] = (float) (random.nextGaussian() * 0.05);
        }
        assertEquals(List.of(), detector.detect(hiss));
    }

    @Test
    void blockSizeDoesNotChangeTheResult() {
        float[] x = new float[RATE * 6];
        System.arraycopy(sentence, 0, x, RATE, sentence.length);
        List<Span> whole = detector.detect(x);
        try (SpeechPass pass = detector.open()) {
            for (int at = 0; at < x.length; at += 333) {
                pass.accept(x, at, Math.min(333, x.length - at));
            }
            assertEquals(whole, pass.finish());
        }
    }

    @Test
    void oneDetectorServesManyThreadsAtOnce() throws Exception {
        float[] x = new float[RATE * 6];
        System.arraycopy(sentence, 0, x, RATE, sentence.length);
        List<Span> expected = detector.detect(x);
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<List<Span>>> results = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                results.add(pool.submit(() -> detector.detect(x)));
            }
            for (Future<List<Span>> result : results) {
                assertEquals(expected, result.get());
            }
        }
    }

    @Test
    void aMissingModelSaysWhereToGetIt() {
        Path nowhere = dir.resolve("no-such-model.onnx");
        IllegalStateException e = assertThrows(
                IllegalStateException.class, () -> SileroSpeechDetector.load(nowhere, SpeechRules.DEFAULT));
        assertTrue(e.getMessage().contains(SileroSpeechDetector.MODEL_ENV), e.getMessage());
        assertTrue(e.getMessage().contains("ensure_vad_model"), e.getMessage());
        assertTrue(e.getMessage().contains(nowhere.toString()), e.getMessage());
    }

    @Test
    void aFileThatIsNotTheModelIsRefused() throws IOException {
        Path junk = Files.writeString(dir.resolve("junk.onnx"), "not a model");
        assertThrows(IllegalStateException.class, () -> SileroSpeechDetector.load(junk, SpeechRules.DEFAULT));
    }

    @Test
    void theConfiguredModelComesFromThePropertyFirst() {
        String before = System.getProperty(SileroSpeechDetector.MODEL_PROPERTY);
        try {
            System.setProperty(SileroSpeechDetector.MODEL_PROPERTY, "/somewhere/model.onnx");
            assertEquals(Path.of("/somewhere/model.onnx"), SileroSpeechDetector.configuredModel());
        } finally {
            System.setProperty(SileroSpeechDetector.MODEL_PROPERTY, before);
        }
    }

    /** espeak-ng's voice at 16 kHz mono, through the ffmpeg CLI. */
    static float[] speak(String text) throws Exception {
        Path wav = dir.resolve("spoken.wav");
        Path raw = dir.resolve("spoken.f32");
        run("espeak-ng", "-w", wav.toString(), text);
        run(
                "ffmpeg",
                "-nostdin",
                "-loglevel",
                "error",
                "-y",
                "-i",
                wav.toString(),
                "-ar",
                "16000",
                "-ac",
                "1",
                "-f",
                "f32le",
                raw.toString());
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(raw)).order(ByteOrder.LITTLE_ENDIAN);
        float[] x = new float[bytes.remaining() / 4];
        bytes.asFloatBuffer().get(x);
        return x;
    }

    /** First and last sample above -50 dBFS, in seconds. */
    static Span audible(float[] x) {
        int first = -1;
        int last = -1;
        for (int i = 0; i < x.length; i++) {
            if (Math.abs(x[i]) > 0.00316) {
                first = first < 0 ? i : first;
                last = i;
            }
        }
        return new Span(first / (double) RATE, (last + 1) / (double) RATE);
    }

    private static void run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " failed: " + out);
        }
    }
}
