package dev.scorecast.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.scorecast.engine.plan.GenerationOptions;
import dev.scorecast.server.config.ServerConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Loudness measured on what the user downloads: the whole pipeline ({@code scorecast score}) on a
 * 24 s clip with cuts, then the MP4's AAC track and the MP3, each decoded and measured by FFmpeg's
 * own ebur128 filter: -14 +-1 LUFS and a true peak of at most -1.0 dBTP. The genres are the ones
 * whose AAC encode overshot the master before the delivery check (house -0.8, cinematic +0.6,
 * rock +0.8 dBTP).
 *
 * <p>Tagged slow (bin/test --all, CI): three whole scorings through the CLI, 32 s; ScorecastCliTest stays
 * in the fast tier, the engine's MasterDeliveryTest checks the delivery check itself.
 */
@Tag("slow")
class DeliveredLoudnessTest {

    @ParameterizedTest
    @ValueSource(strings = {"house", "cinematic", "rock"})
    void theDownloadedMp4AndMp3AreAtTheTargetAndUnderTheCeiling(String genre, @TempDir Path dir) throws Exception {
        Path clip = dir.resolve("clip.mp4");
        run(List.of(
                "ffmpeg",
                "-hide_banner",
                "-loglevel",
                "error",
                "-y",
                "-t",
                "8",
                "-f",
                "lavfi",
                "-i",
                "testsrc2=size=320x240:rate=25",
                "-t",
                "8",
                "-f",
                "lavfi",
                "-i",
                "smptebars=size=320x240:rate=25",
                "-t",
                "8",
                "-f",
                "lavfi",
                "-i",
                "mandelbrot=size=320x240:rate=25",
                "-filter_complex",
                "[0:v][1:v][2:v]concat=n=3:v=1:a=0,format=yuv420p[v]",
                "-map",
                "[v]",
                "-c:v",
                "libx264",
                "-preset",
                "ultrafast",
                clip.toString()));
        Path out = dir.resolve("scored.mp4");
        var options =
                GenerationOptions.DEFAULT.withGenre(genre).withMultitrack(false).withSeed(3L);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        ScoreCommand.run(
                clip, out, options, ServerConfig.from(System.getenv()).soundFont(), new PrintStream(log, true));
        Path outputs = dir.resolve("scored-outputs");
        var loudness = new ObjectMapper()
                .readTree(outputs.resolve("results.json").toFile())
                .get("loudness");
        for (Path delivered : List.of(out, outputs.resolve("audio.mp3"))) {
            String summary = run(List.of(
                    "ffmpeg",
                    "-nostdin",
                    "-hide_banner",
                    "-nostats",
                    "-i",
                    delivered.toString(),
                    "-map",
                    "0:a:0",
                    "-af",
                    "ebur128=peak=true",
                    "-f",
                    "null",
                    "-"));
            summary = summary.substring(summary.lastIndexOf("Summary:"));
            double lufs = number(summary, "I:\\s+(-?[0-9.]+) LUFS");
            double peak = number(summary, "Peak:\\s+(-?[0-9.]+) dBFS");
            System.out.printf("%s %s: %.1f LUFS, %.2f dBTP%n", genre, delivered.getFileName(), lufs, peak);
            assertEquals(-14, lufs, 1.0, genre + " " + delivered.getFileName() + " loudness");
            assertTrue(peak <= -1.0, genre + " " + delivered.getFileName() + " true peak " + peak + " dBTP");
            // results.json reports what the downloads decode to, as FFmpeg's own meter reads them.
            var reported = loudness.get(delivered.equals(out) ? "video_mp4" : "audio_mp3");
            assertEquals(lufs, reported.get("integrated_lufs").asDouble(), 0.3, "results.json " + reported);
            assertEquals(peak, reported.get("true_peak_dbtp").asDouble(), 0.3, "results.json " + reported);
        }
    }

    private static double number(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), "no " + regex + " in " + text);
        return Double.parseDouble(m.group(1));
    }

    private static String run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(new ArrayList<>(command))
                .redirectErrorStream(true)
                .start();
        String output = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(300, TimeUnit.SECONDS) && p.exitValue() == 0, String.join(" ", command) + "\n" + output);
        return output;
    }
}
