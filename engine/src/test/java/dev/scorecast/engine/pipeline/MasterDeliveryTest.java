package dev.scorecast.engine.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.dsp.LoudnessMeter;
import dev.scorecast.engine.error.UnsupportedMedia;
import dev.scorecast.engine.io.WavEncoding;
import dev.scorecast.engine.io.WavFiles;
import dev.scorecast.engine.io.WavWriter;
import dev.scorecast.engine.media.AudioExtractor;
import dev.scorecast.engine.render.MixSettings;
import dev.scorecast.engine.render.Mixer;
import dev.scorecast.engine.render.Stem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The downloads are the master: encoded while it is made, or from its file when the pass they
 * were fed was not the master after all.
 */
class MasterDeliveryTest {
    private static final int RATE = 48_000;

    @TempDir
    static Path dir;

    static Path video;
    static Path tone;
    static ExecutorService threads;

    @BeforeAll
    static void inputs() throws IOException, InterruptedException {
        video = dir.resolve("in.mp4");
        Process p = new ProcessBuilder(
                        "ffmpeg",
                        "-v",
                        "error",
                        "-y",
                        "-f",
                        "lavfi",
                        "-i",
                        "testsrc2=size=160x120:rate=30",
                        "-t",
                        "5",
                        "-c:v",
                        "libx264",
                        "-preset",
                        "veryfast",
                        "-pix_fmt",
                        "yuv420p",
                        video.toString())
                .inheritIO()
                .start();
        assertEquals(0, p.waitFor());
        // A 12 kHz tone sampled 45 degrees off its peaks: every sample 3 dB under the true peak.
        tone = dir.resolve("tone.wav");
        float[][] x = new float[2][5 * RATE];
        for (int i = 0; i < x[0].length; i++) {
            x[0][i] = x[1][i] = (float)
                    (0.5 * Math.sin(Math.PI / 2 * i + Math.PI / 4) * (0.6 + 0.4 * Math.sin(2 * Math.PI * i / RATE)));
        }
        try (WavWriter w = WavWriter.create(tone, WavEncoding.FLOAT32, RATE, 2)) {
            w.write(x, x[0].length);
            w.commit();
        }
        threads = Executors.newCachedThreadPool();
    }

    @AfterAll
    static void stop() {
        threads.shutdownNow();
    }

    @Test
    void theDownloadsAreTheMasterEncodedAsItIsMade(@TempDir Path out) {
        deliverAndCompare(out, new MixSettings(Map.of(), Map.of(), -20, 0, Optional.empty(), 0));
    }

    @Test
    void whenTheFedPassRunsAgainTheDownloadsComeFromTheFile(@TempDir Path out) {
        // Louder than the ceiling lets the tone be: the forecast, reading sample peaks, expects a
        // pass that lands; the limiter, reading true peaks, takes 3 dB more, and the pass runs again.
        deliverAndCompare(out, new MixSettings(Map.of(), Map.of(), -8, 12, Optional.empty(), 0));
    }

    @Test
    void aVideoThatCannotBeReadFailsTheDeliveryWithoutHoldingUpTheMaster(@TempDir Path out) {
        // Longer than the pipes hold, so a master writing into an encoder that gave up would wait for ever.
        Path long12 = out.resolve("long.wav");
        float[][] x = new float[2][12 * RATE];
        for (int i = 0; i < x[0].length; i++) {
            x[0][i] = x[1][i] = (float) (0.3 * Math.sin(2 * Math.PI * 220 * i / RATE));
        }
        try (WavWriter w = WavWriter.create(long12, WavEncoding.FLOAT32, RATE, 2)) {
            w.write(x, x[0].length);
            w.commit();
        }
        Path master = out.resolve("audio.wav");
        Assertions.assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (Mixer.Mixdown mix = Mixer.mixdown(
                    List.of(new Stem(InstrumentGroup.MELODY, long12, -10)),
                    new MixSettings(Map.of(), Map.of(), -14, 0, Optional.empty(), 0),
                    master)) {
                Path junk = Files.write(out.resolve("junk.mp4"), new byte[4096]);
                MasterDelivery delivery =
                        new MasterDelivery(junk, master, out.resolve("video.mp4"), out.resolve("audio.mp3"), threads);
                Assertions.assertThrows(UnsupportedMedia.class, () -> delivery.run(mix, () -> {}));
            }
        });
    }

    private static void deliverAndCompare(Path out, MixSettings settings) {
        Path master = out.resolve("audio.wav");
        boolean[] mastered = {false};
        MasterDelivery.Delivered delivered;
        try (Mixer.Mixdown mix = Mixer.mixdown(List.of(new Stem(InstrumentGroup.MELODY, tone, -6)), settings, master)) {
            delivered = new MasterDelivery(video, master, out.resolve("video.mp4"), out.resolve("audio.mp3"), threads)
                    .run(mix, () -> mastered[0] = true);
        }
        assertTrue(mastered[0]);
        double masterLufs = lufs(master);
        assertEquals(delivered.master().integratedLufs(), masterLufs, 0.05);
        Map<String, Double> reported = Map.of(
                "video.mp4",
                delivered.mp4().integratedLufs(),
                "audio.mp3",
                delivered.mp3().integratedLufs());
        for (String download : List.of("video.mp4", "audio.mp3")) {
            Path decoded = out.resolve(download + ".wav");
            AudioExtractor.extractWav(out.resolve(download), decoded).orElseThrow();
            assertEquals(masterLufs, lufs(decoded), 0.5, download + " against the master");
            assertEquals(lufs(decoded), reported.get(download), 0.01, download + " as reported");
            assertEquals(5.0, WavFiles.readAll(decoded)[0].length / (double) RATE, 0.1, download + " length");
        }
    }

    private static double lufs(Path wav) {
        float[][] x = WavFiles.readAll(wav);
        LoudnessMeter m = new LoudnessMeter(RATE, 2);
        m.accept(x, x[0].length);
        return m.finish().integratedLufs();
    }
}
