package dev.scorecast.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.scorecast.server.AlignedCorrelation;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scorecast conform OLD-outputs/ NEW.mp4 -o NEW-scored.mp4} on a real re-cut (issue 27), with
 * the arguments bin/scorecast passes: a 12 s cut of three 4 s shots is scored with {@code score}, the
 * middle shot is cut out of it with FFmpeg (re-encoded), and {@code conform} scores the re-cut from
 * the first run's outputs. The re-cut's video lasts its 8 s, both shots are reported kept, its plan
 * keeps the old music under them (sections with an origin), every cut is struck within a frame, and
 * the last shot's audio is the first cut's audio under that shot (correlation over its middle 80 %).
 */
class ConformCommandTest {
    static final int RATE = 48000;

    @Test
    void conformScoresARecutFromTheOutputsOfAnEarlierScore(@TempDir Path dir) throws Exception {
        Path first = dir.resolve("first.mp4");
        ffmpeg(
                "-t",
                "4",
                "-f",
                "lavfi",
                "-i",
                "testsrc2=size=320x240:rate=25",
                "-t",
                "4",
                "-f",
                "lavfi",
                "-i",
                "mandelbrot=size=320x240:rate=25",
                "-t",
                "4",
                "-f",
                "lavfi",
                "-i",
                "smptebars=size=320x240:rate=25",
                "-filter_complex",
                "[0:v][1:v][2:v]concat=n=3:v=1:a=0,format=yuv420p[v]",
                "-map",
                "[v]",
                "-c:v",
                "libx264",
                "-preset",
                "ultrafast",
                first.toString());
        Captured scored = cli(List.of(
                "score",
                first.toString(),
                "-o",
                dir.resolve("first-scored.mp4").toString(),
                "--genre",
                "pop",
                "--seed",
                "11"));
        assertEquals(0, scored.status(), scored::toString);
        Path recut = dir.resolve("second.mp4");
        ffmpeg(
                "-i",
                first.toString(),
                "-filter_complex",
                "[0:v]trim=start=0:end=4,setpts=PTS-STARTPTS[a];"
                        + "[0:v]trim=start=8:end=12,setpts=PTS-STARTPTS[b];[a][b]concat=n=2:v=1:a=0,format=yuv420p[v]",
                "-map",
                "[v]",
                "-c:v",
                "libx264",
                "-preset",
                "ultrafast",
                "-crf",
                "28",
                recut.toString());
        Path output = dir.resolve("second-scored.mp4");
        Captured conformed = cli(List.of(
                "conform", dir.resolve("first-scored-outputs").toString(), recut.toString(), "-o", output.toString()));
        assertEquals(0, conformed.status(), conformed::toString);
        System.out.print(conformed.out());
        assertTrue(conformed.out().contains("kept     old 0.000-4.000 new 0.000-4.000"), conformed.out());
        assertTrue(conformed.out().contains("kept     old 8.000-12.000 new 4.000-8.000"), conformed.out());
        assertTrue(conformed.out().contains("removed  old 4.000-8.000"), conformed.out());

        assertEquals(8.0, Double.parseDouble(ffprobeDuration(output)), 1 / 25.0, "the scored re-cut lasts the re-cut");
        Path outputs = dir.resolve("second-scored-outputs");
        ObjectMapper json = new ObjectMapper();
        JsonNode plan = json.readTree(outputs.resolve("plan.json").toFile());
        long keptSections = 0;
        for (JsonNode s : plan.get("sections")) {
            keptSections += s.hasNonNull("origin") ? 1 : 0;
        }
        assertTrue(keptSections >= 2, plan::toString);
        JsonNode sync = json.readTree(outputs.resolve("results.json").toFile()).get("sync");
        assertTrue(sync.get("all_within_frame").asBoolean(), sync::toString);

        float[] before = mono(dir.resolve("first-scored-outputs").resolve("audio.wav"), dir.resolve("before.f32"));
        float[] after = mono(outputs.resolve("audio.wav"), dir.resolve("after.f32"));
        // The last shot: old 8-12 s, now 4-8 s; its middle 80 %.
        double c = AlignedCorrelation.of(before, after, (int) (4.4 * RATE), (int) (7.6 * RATE), -4 * RATE);
        System.out.printf(
                Locale.ROOT, "conform CLI: last shot's audio against the first cut's under it: correlation %.4f%n", c);
        assertTrue(c >= 0.99, "correlation " + c);
    }

    private record Captured(int status, String out, String err) {}

    private static Captured cli(List<String> args) throws InterruptedException {
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();
        int status = ScorecastCli.run(
                args,
                System.getenv(),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Captured(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The WAV's samples, mixed to one channel at 48 kHz (decoded by FFmpeg). */
    private static float[] mono(Path wav, Path raw) throws Exception {
        ffmpeg("-i", wav.toString(), "-ac", "1", "-ar", String.valueOf(RATE), "-f", "f32le", raw.toString());
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(raw)).order(ByteOrder.LITTLE_ENDIAN);
        float[] out = new float[bytes.remaining() / 4];
        bytes.asFloatBuffer().get(out);
        return out;
    }

    private static String ffprobeDuration(Path video) throws Exception {
        return run(List.of(
                        "ffprobe",
                        "-v",
                        "error",
                        "-show_entries",
                        "format=duration",
                        "-of",
                        "csv=p=0",
                        video.toString()))
                .trim();
    }

    private static void ffmpeg(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("ffmpeg", "-hide_banner", "-loglevel", "error", "-y"));
        command.addAll(List.of(args));
        run(command);
    }

    private static String run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(300, TimeUnit.SECONDS) && p.exitValue() == 0, String.join(" ", command) + "\n" + output);
        return output;
    }
}
