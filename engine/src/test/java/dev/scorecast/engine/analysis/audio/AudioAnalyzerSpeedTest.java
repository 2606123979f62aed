package dev.scorecast.engine.analysis.audio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.voice.speech.SileroSpeechDetector;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How long the analysis of a minute and of ten minutes takes, and that ten minutes fit a 32 MB heap. */
@Tag("slow")
class AudioAnalyzerSpeedTest {

    private static final String MUSIC = "anoisesrc=c=pink:a=0.05:r=48000:seed=8[n];"
            + "aevalsrc=0.3*sin(2*PI*55*t)*exp(-8*mod(t\\,0.5))+0.1*sin(2*PI*660*t)*exp(-20*mod(t\\,0.25)):s=48000[b];"
            + "[n][b]amix=inputs=2:normalize=0[out0]";

    @TempDir
    static Path dir;

    @Test
    void aMinuteAndTenMinutes() throws Exception {
        Path minute = AudioFixtures.lavfi(dir.resolve("minute.wav"), MUSIC, 60);
        Path tenMinutes = AudioFixtures.lavfi(dir.resolve("ten-minutes.wav"), MUSIC, 600);
        try (SileroSpeechDetector silero = SileroSpeechDetector.load()) {
            AudioAnalyzer withoutSpeech = new AudioAnalyzer(new AudioAnalyzerTest.Deaf());
            AudioAnalyzer full = new AudioAnalyzer(silero);
            List<String> lines = new ArrayList<>();
            withoutSpeech.analyze(minute); // the JIT's warm-up
            full.analyze(minute);
            for (Path wav : List.of(minute, tenMinutes)) {
                double dsp = seconds(() -> withoutSpeech.analyze(wav));
                double total = seconds(() -> full.analyze(wav));
                lines.add(String.format(
                        Locale.ROOT,
                        "%-16s without speech detection %.2f s, with it %.2f s",
                        wav.getFileName(),
                        dsp,
                        total));
                if (wav == minute) {
                    assertTrue(dsp < 1.0, "a minute takes " + dsp + " s besides speech detection");
                }
            }
            lines.forEach(System.out::println);
        }
        String out = runInSmallHeap(tenMinutes);
        System.out.println("-Xmx32m: " + out);
        assertTrue(out.contains("analysed in"), out);
    }

    private static String runInSmallHeap(Path wav) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(
                        java,
                        "-Xmx32m",
                        "--enable-native-access=ALL-UNNAMED",
                        "-D" + SileroSpeechDetector.MODEL_PROPERTY + "=" + SileroSpeechDetector.configuredModel(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        AnalyzeInSmallHeap.class.getName(),
                        wav.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(300, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return out.trim();
    }

    private static double seconds(Runnable r) {
        long start = System.nanoTime();
        r.run();
        return (System.nanoTime() - start) / 1e9;
    }
}
