package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A corpus of broken and hostile media through the whole API as a client would send it: upload,
 * complete, analyse, generate, execute. Each file must end in a clear 4xx at complete, or in jobs
 * that end (finished or error with a message), within bounded time, never a 5xx or a hang.
 */
class MalformedMediaTest {
    @TempDir
    static Path data;

    @TempDir
    static Path corpus;

    static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start(data); // default limits: 8K is refused at complete
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static List<String> cases() {
        return List.of(
                "truncated-half",
                "truncated-header",
                "bit-flipped",
                "moov-zeroed",
                "random-bytes",
                "eight-k",
                "sixty-streams",
                "sound-longer-than-picture",
                "endless-timestamps",
                "empty-file-like",
                "a-thousand-streams",
                "mdat-declares-4-gib",
                "sample-declares-4-gib");
    }

    @ParameterizedTest
    @MethodSource("cases")
    void endsInAClearRefusalOrInJobsThatEnd(String name) throws Exception {
        Path file = make(name);
        Api api = server.alice();
        long started = System.nanoTime();
        Api.Response completed = Uploads.uploadA(api, file, "video/mp4", 1);
        assertTrue(completed.status() < 500, name + ": complete " + completed);
        if (completed.status() != 200) {
            assertTrue(
                    completed.status() == 415
                            || completed.status() == 422
                            || completed.status() == 413
                            || completed.status() == 400,
                    name + ": " + completed);
            assertTrue(completed.body().get("message").asText().length() > 20, name + ": " + completed);
            return;
        }
        String video = completed.body().get("video_id").asText();
        Api.Response analysis = api.postJson("/sync/video_analysis", Map.of("video_id", video));
        assertTrue(analysis.status() < 500, name + ": " + analysis);
        JsonNode analysed =
                AnalysisFlowTest.awaitJob(api, analysis.body().get("job_id").asText());
        assertTrue(List.of("finished", "error").contains(analysed.get("status").asText()), name + ": " + analysed);
        if (analysed.get("status").asText().equals("finished")) {
            Api.Response plan = api.postJson(
                    "/sync/generate",
                    Map.of("analysis_id", analysis.body().get("analysis_id").asText(), "genre", "lofi", "seed", 1));
            assertTrue(plan.status() < 500, name + ": " + plan);
            if (plan.status() == 200) {
                Api.Response exec = api.postJson(
                        "/sync/execute",
                        Map.of("plan_id", plan.body().get("plan_id").asText()));
                JsonNode done = ScoringFlowTest.awaitExecution(
                        api,
                        "/sync/status",
                        Map.of("job_id", exec.body().get("job_id").asText()));
                assertTrue(
                        List.of("finished", "error").contains(done.get("status").asText()), name + ": " + done);
            }
        } else {
            assertTrue(analysed.get("message").asText().length() > 20, name + ": " + analysed);
        }
        long seconds = (System.nanoTime() - started) / 1_000_000_000L;
        assertTrue(seconds < 120, name + " took " + seconds + " s");
    }

    private static Path make(String name) throws IOException {
        Path base = Videos.h264Aac();
        byte[] bytes = Files.readAllBytes(base);
        Random random = new Random(name.hashCode());
        Path out = corpus.resolve(name + ".mp4");
        switch (name) {
            case "truncated-half" -> Files.write(out, Arrays.copyOf(bytes, bytes.length / 2));
            case "truncated-header" -> Files.write(out, Arrays.copyOf(bytes, 64));
            case "bit-flipped" -> {
                byte[] flipped = bytes.clone();
                for (int i = 0; i < flipped.length / 100; i++) {
                    int at = 1024 + random.nextInt(flipped.length - 1024);
                    flipped[at] ^= (byte) (1 << random.nextInt(8));
                }
                Files.write(out, flipped);
            }
            case "moov-zeroed" -> {
                byte[] zeroed = bytes.clone();
                int moov = indexOf(zeroed, "moov".getBytes());
                for (int i = moov; i < Math.min(zeroed.length, moov + 4096); i++) {
                    zeroed[i] = 0;
                }
                Files.write(out, zeroed);
            }
            case "random-bytes" -> {
                byte[] noise = new byte[200_000];
                random.nextBytes(noise);
                Files.write(out, noise);
            }
            case "empty-file-like" -> Files.write(out, new byte[] {0, 0, 0, 8, 'f', 't', 'y', 'p'});
            case "eight-k" ->
                copy(
                        Videos.make(
                                "eight-k.mp4",
                                "-f lavfi -i color=c=blue:size=7680x4320:rate=1 -t 1 -c:v libx264 "
                                        + "-preset ultrafast -pix_fmt yuv420p"),
                        out);
            case "sixty-streams" -> {
                List<String> args = new ArrayList<>(List.of(
                        "-f",
                        "lavfi",
                        "-i",
                        "testsrc2=size=160x120:rate=10",
                        "-f",
                        "lavfi",
                        "-i",
                        "sine=frequency=440:sample_rate=8000",
                        "-map",
                        "0:v"));
                for (int i = 0; i < 60; i++) {
                    args.addAll(List.of("-map", "1:a"));
                }
                args.addAll(List.of(
                        "-t", "1", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac"));
                copy(Videos.make("sixty-streams.mp4", String.join(" ", args)), out);
            }
            case "sound-longer-than-picture" ->
                copy(
                        Videos.make(
                                "long-sound.mkv",
                                "-f lavfi -i testsrc2=size=160x120:rate=10 "
                                        + "-f lavfi -i sine=frequency=440:sample_rate=48000:duration=60 -t 60 -map 0:v -map 1:a -c:v libx264 -preset ultrafast "
                                        + "-pix_fmt yuv420p -frames:v 10 -c:a aac"),
                        out);
            case "endless-timestamps" ->
                copy(
                        Videos.make(
                                "endless.mp4",
                                "-f lavfi -i testsrc2=size=160x120:rate=10 -t 2 "
                                        + "-c:v libx264 -preset ultrafast -pix_fmt yuv420p -output_ts_offset 86000"),
                        out);
            case "a-thousand-streams" -> {
                List<String> args = new ArrayList<>(List.of(
                        "-f",
                        "lavfi",
                        "-i",
                        "testsrc2=size=160x120:rate=10",
                        "-f",
                        "lavfi",
                        "-i",
                        "sine=frequency=440:sample_rate=8000",
                        "-map",
                        "0:v"));
                for (int i = 0;
                        i < 998;
                        i++) { // 999 streams: FFmpeg itself refuses more than 1000 when reading or writing
                    args.addAll(List.of("-map", "1:a"));
                }
                args.addAll(List.of(
                        "-t", "1", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "pcm_u8"));
                copy(Videos.make("a-thousand-streams.mkv", String.join(" ", args)), out);
            }
            case "mdat-declares-4-gib" -> {
                // The media data box claims 4 GiB in a file of a few hundred kilobytes.
                byte[] lying = bytes.clone();
                int mdat = indexOf(lying, "mdat".getBytes());
                putInt(lying, mdat - 4, 0xFFFF_FFF0);
                Files.write(out, lying);
            }
            case "sample-declares-4-gib" -> {
                // The first track's first sample claims to be 4 GiB long: a demuxer that trusts it allocates that much.
                byte[] lying = bytes.clone();
                int stsz = indexOf(lying, "stsz".getBytes());
                putInt(lying, stsz + 8, 0); // every sample sized in the table that follows
                putInt(lying, stsz + 16, 0xFFFF_FF00);
                Files.write(out, lying);
            }
            default -> throw new IllegalArgumentException(name);
        }
        return out;
    }

    private static void putInt(byte[] bytes, int at, int value) {
        ByteBuffer.wrap(bytes, at, 4).putInt(value);
    }

    private static void copy(Path from, Path to) {
        try {
            Files.copy(from, to);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int k = 0; k < needle.length; k++) {
                if (haystack[i + k] != needle[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return 0;
    }
}
