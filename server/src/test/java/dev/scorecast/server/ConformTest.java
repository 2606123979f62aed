package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Follow a re-cut (issue 27), through the API on real media: a 20 s cut of five shots (4 s each,
 * 25 fps) is scored once; then re-cuts made from it with FFmpeg (re-encoded every time) are
 * conformed to that execution and executed, and each render is measured against the first by
 * {@link RecutMeasure}: the kept shots' music (correlation after aligning by the shot's offset), every
 * cut struck within a frame, the music ending on the last frame, no click at a splice. The numbers
 * are printed for docs/EDITING.md.
 */
class ConformTest {
    static final double FPS = 25;

    @TempDir
    static Path data;

    @TempDir
    static Path work;

    static TestServer server;
    static Api api;
    static Path original;
    static String executionId;
    static float[] oldAudio;

    @BeforeAll
    static void scoreTheFirstCut() throws Exception {
        server = TestServer.start(data);
        api = server.alice();
        original = Videos.make(
                "recut-original.mp4",
                "-t 4 -f lavfi -i testsrc2=size=320x240:rate=25 -t 4 -f lavfi -i mandelbrot=size=320x240:rate=25"
                        + " -t 4 -f lavfi -i cellauto=size=320x240:rate=25:rule=110 -t 4 -f lavfi -i sierpinski=size=320x240:rate=25"
                        + " -t 4 -f lavfi -i testsrc=size=320x240:rate=25 -f lavfi -i sine=frequency=220:sample_rate=48000"
                        + " -filter_complex [2:v]lutrgb=g=val*0.3:b=val*0.3[c];[3:v]lutrgb=r=val*0.2:g=val*0.6[s];"
                        + "[0:v][1:v][c][s][4:v]concat=n=5:v=1:a=0,format=yuv420p[v];[5:a]volume=0.2[a]"
                        + " -map [v] -map [a] -t 20 -c:v libx264 -preset ultrafast -c:a aac");
        String analysisId = analyse(original);
        Api.Response generated =
                api.postJson("/sync/generate", Map.of("analysis_id", analysisId, "genre", "pop", "seed", 11));
        assertEquals(200, generated.status(), generated::toString);
        System.out.print(RecutMeasure.sections("first", generated.body().get("plan")));
        JsonNode status = execute(generated.body().get("plan_id").asText());
        executionId = status.get("execution_id").asText();
        oldAudio = mono(ScoringFlowTest.fetch(status.at("/links/audio_wav").asText()), "old");
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    // Tagged slow (bin/test --all): a whole re-cut scored, 4 to 6 s each; swapping shots and another user's ids stay
    // fast.
    @Test
    @Tag("slow")
    void removingAMiddleShotKeepsTheOthersMusic() throws Exception {
        JsonNode conform = recut(
                "remove",
                "-i " + original + " -f lavfi -i sine=frequency=330:sample_rate=48000 -filter_complex "
                        + segments(new double[][] {{0, 4}, {4, 8}, {12, 16}, {16, 20}})
                        + " -map [v] -map 1:a -t 16 -c:v libx264 -preset ultrafast -c:a aac");
        assertEquals(4, conform.get("kept").asInt(), conform::toString);
        assertEquals(1, conform.get("removed").asInt(), conform::toString);
    }

    // Tagged slow (bin/test --all): a whole re-cut scored, 4 to 6 s each; swapping shots and another user's ids stay
    // fast.
    @Test
    @Tag("slow")
    void trimmingTwoShotsKeepsWhatIsLeftOfThem() throws Exception {
        JsonNode conform = recut(
                "trim",
                "-i " + original + " -f lavfi -i sine=frequency=330:sample_rate=48000 -filter_complex "
                        + segments(new double[][] {{0, 4}, {5, 8}, {8, 12}, {12, 14.8}, {16, 20}})
                        + " -map [v] -map 1:a -t 17.8 -c:v libx264 -preset ultrafast -c:a aac");
        assertEquals(2, conform.get("trimmed").asInt(), conform::toString);
        assertEquals(3, conform.get("kept").asInt(), conform::toString);
        // 120 bpm: the head trimmed by 1 s (two beats) leaves the cut at 4 s on a beat of both sides (a bar of
        // two beats); the tail trimmed by 1.2 s leaves the outgoing music 0.3 s past its beat at the cut at
        // 13.8 s, so it stops on that beat and a transition bridges it to the incoming music's next beat.
        JsonNode atFour = transition(conform, 4.0);
        assertEquals(0, atFour.get("beats").asInt(), atFour::toString);
        JsonNode midBeat = transition(conform, 13.8);
        assertEquals(13.5, midBeat.get("from").asDouble(), 1e-3, midBeat::toString);
        assertTrue(midBeat.get("beats").asInt() >= 1, midBeat::toString);
    }

    @Test
    void swappingTwoShotsMovesTheirMusicWithThem() throws Exception {
        JsonNode conform = recut(
                "swap",
                "-i " + original + " -f lavfi -i sine=frequency=330:sample_rate=48000 -filter_complex "
                        + segments(new double[][] {{0, 4}, {8, 12}, {4, 8}, {12, 16}, {16, 20}})
                        + " -map [v] -map 1:a -t 20 -c:v libx264 -preset ultrafast -c:a aac");
        assertEquals(1, conform.get("moved").asInt(), conform::toString);
        assertEquals(4, conform.get("kept").asInt(), conform::toString);
    }

    // Tagged slow (bin/test --all): a whole re-cut scored, 4 to 6 s each; swapping shots and another user's ids stay
    // fast.
    @Test
    @Tag("slow")
    void anInsertedShotGetsNewMusic() throws Exception {
        JsonNode conform = recut(
                "insert",
                "-i " + original + " -t 3 -f lavfi -i life=size=320x240:rate=25:seed=5:mold=10"
                        + " -f lavfi -i sine=frequency=330:sample_rate=48000 -filter_complex "
                        + "[1:v]lutrgb=r=val*0.3:b=val*0.3,format=yuv420p,setsar=1[n];"
                        + segmentsWith(new double[][] {{0, 4}, {4, 8}, {-1, -1}, {8, 12}, {12, 16}, {16, 20}}, "[n]")
                        + " -map [v] -map 2:a -t 23 -c:v libx264 -preset ultrafast -c:a aac");
        assertEquals(1, conform.get("new").asInt(), conform::toString);
        assertEquals(5, conform.get("kept").asInt(), conform::toString);
    }

    // Tagged slow (bin/test --all): a whole re-cut scored, 4 to 6 s each; swapping shots and another user's ids stay
    // fast.
    @Test
    @Tag("slow")
    void anotherFrameRateAndSizeKeepsEveryShot() throws Exception {
        JsonNode conform = recut("fps", refiltered("fps=30,scale=480:360"));
        assertEquals(5, conform.get("kept").asInt(), conform::toString);
    }

    // Tagged slow (bin/test --all): a whole re-cut scored.
    @Test
    @Tag("slow")
    void aCutMovedByLessThanAFrameIsTheSameCut() throws Exception {
        // NTSC's 29.97 fps: the cuts at 4, 8, 12 and 16 s land on frames 4 to 30 ms off (4.004 s, 7.975 s, ...).
        // They are the same cuts: the five shots stay one stretch of the first cut's music, with no join.
        JsonNode conform = recut("ntsc", refiltered("fps=30000/1001"));
        assertEquals(5, conform.get("kept").asInt(), conform::toString);
        assertEquals(0, conform.get("transitions").size(), conform::toString);
    }

    @Test
    void anotherUsersIdsAreNotFoundAndUnfinishedOnesAreRefused() throws Exception {
        String analysisId = analyse(original);
        Api.Response foreign =
                server.bob().postJson("/sync/conform", Map.of("analysis_id", analysisId, "execution_id", executionId));
        assertEquals(404, foreign.status(), foreign::toString);
        Api.Response missing = api.postJson("/sync/conform", Map.of("analysis_id", analysisId));
        assertEquals(400, missing.status(), missing::toString);
        assertEquals("execution_id", missing.body().get("field").asText(), missing::toString);
        Api.Response generated = api.postJson("/sync/generate", Map.of("analysis_id", analysisId, "seed", 3));
        Api.Response started = api.postJson(
                "/sync/execute",
                Map.of("plan_id", generated.body().get("plan_id").asText()));
        Api.Response early = api.postJson(
                "/sync/conform",
                Map.of(
                        "analysis_id",
                        analysisId,
                        "execution_id",
                        started.body().get("execution_id").asText()));
        assertEquals(409, early.status(), early::toString);
        assertEquals("execution_id", early.body().get("field").asText(), early::toString);
        ScoringFlowTest.awaitExecution(
                api,
                "/sync/status",
                Map.of("job_id", started.body().get("job_id").asText()));
    }

    private static JsonNode transition(JsonNode conform, double cut) {
        for (JsonNode t : conform.get("transitions")) {
            if (Math.abs(t.get("at").asDouble() - cut) < 1e-3) {
                return t;
            }
        }
        throw new AssertionError("no transition at " + cut + ": " + conform);
    }

    /** Builds the re-cut, conforms it to the first execution, executes it and measures it; answers the conform object. */
    /** The whole first cut through the video filter {@code vf}, re-encoded with a new sound track. */
    private static String refiltered(String vf) {
        return "-i " + original + " -f lavfi -i sine=frequency=330:sample_rate=48000 -vf " + vf
                + " -map 0:v -map 1:a -t 20 -c:v libx264 -preset ultrafast -crf 30 -c:a aac";
    }

    private static JsonNode recut(String name, String ffmpeg) throws Exception {
        Path video = Videos.make("recut-" + name + ".mp4", ffmpeg);
        String analysisId = analyse(video);
        Api.Response conformed =
                api.postJson("/sync/conform", Map.of("analysis_id", analysisId, "execution_id", executionId));
        assertEquals(200, conformed.status(), conformed::toString);
        JsonNode conform = conformed.body().get("conform");
        JsonNode plan = conformed.body().get("plan");
        JsonNode status = execute(conformed.body().get("plan_id").asText());
        JsonNode results = Api.JSON.readTree(
                ScoringFlowTest.fetch(status.at("/links/results").asText()));
        float[] audio = mono(ScoringFlowTest.fetch(status.at("/links/audio_wav").asText()), name);
        // Every cut of the new video is struck within a frame: the planned hits and accents.
        List<Double> cuts = new ArrayList<>();
        for (JsonNode section : plan.get("sections")) {
            if (!section.get("hit").isNull()
                    && section.get("start").asDouble() > 0
                    && !"swell".equals(section.at("/hit/kind").asText())) {
                cuts.add(section.get("start").asDouble());
            }
            for (JsonNode a : section.get("accents")) {
                cuts.add(a.get("time").asDouble());
            }
        }
        RecutMeasure.Report report = RecutMeasure.measure(
                name, FPS, oldAudio, audio, plan, conform.get("spans"), conform.get("transitions"), results, cuts);
        System.out.print(report.table());
        assertTrue(report.failures().isEmpty(), () -> String.join("\n", report.failures()) + "\n" + report.table());
        return conform;
    }

    /** A filter graph that cuts {@code spans} (seconds of the original) out of input 0 and joins them in order. */
    private static String segments(double[][] spans) {
        return segmentsWith(spans, null);
    }

    /** The same, with {@code inserted} (a labelled stream) where a span is {-1, -1}. */
    private static String segmentsWith(double[][] spans, String inserted) {
        StringBuilder graph = new StringBuilder();
        StringBuilder joined = new StringBuilder();
        for (int i = 0; i < spans.length; i++) {
            if (spans[i][0] < 0) {
                joined.append(inserted);
                continue;
            }
            graph.append(String.format(
                    Locale.ROOT,
                    "[0:v]trim=start=%.3f:end=%.3f,setpts=PTS-STARTPTS,format=yuv420p,setsar=1[p%d];",
                    spans[i][0],
                    spans[i][1],
                    i));
            joined.append("[p").append(i).append(']');
        }
        int count = (int) Arrays.stream(spans).count();
        return graph + joined.toString() + "concat=n=" + count + ":v=1:a=0[v]";
    }

    private static String analyse(Path video) throws Exception {
        Api.Response done = Uploads.uploadA(api, video, "video/mp4", 1);
        assertEquals(200, done.status(), done::toString);
        Api.Response started = api.postJson(
                "/sync/video_analysis",
                Map.of("video_id", done.body().get("video_id").asText()));
        JsonNode analysed =
                AnalysisFlowTest.awaitJob(api, started.body().get("job_id").asText());
        assertEquals("finished", analysed.get("status").asText(), analysed::toString);
        return started.body().get("analysis_id").asText();
    }

    private static JsonNode execute(String planId) throws Exception {
        Api.Response executed = api.postJson("/sync/execute", Map.of("plan_id", planId));
        assertEquals(200, executed.status(), executed::toString);
        JsonNode status = ScoringFlowTest.awaitExecution(
                api,
                "/sync/status",
                Map.of("job_id", executed.body().get("job_id").asText()));
        assertEquals("finished", status.get("status").asText(), status::toString);
        return status;
    }

    /** The WAV's samples, mixed to one channel at 48 kHz (decoded by FFmpeg). */
    private static float[] mono(byte[] wav, String name) throws Exception {
        Path in = work.resolve(name + ".wav");
        Files.write(in, wav);
        return RecutMeasure.mono(in, work.resolve(name + ".f32"));
    }
}
