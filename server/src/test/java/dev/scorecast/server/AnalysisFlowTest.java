package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.scorecast.engine.style.GenreCatalog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Step four of both variants through HTTP, on a video with cuts at known frames. */
class AnalysisFlowTest {
    @TempDir
    static Path data;

    static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start(data);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** Polls /sync/status until the job is done, as a client would. */
    static JsonNode awaitJob(Api api, String jobId) throws InterruptedException {
        for (int i = 0; i < 600; i++) {
            Api.Response r = api.postJson("/sync/status", Map.of("job_id", jobId));
            assertEquals(200, r.status(), r::toString);
            String status = r.body().get("status").asText();
            if (status.equals("finished") || status.equals("error")) {
                return r.body();
            }
            assertTrue(List.of("pending", "processing").contains(status), status);
            Thread.sleep(100);
        }
        throw new AssertionError("job " + jobId + " did not finish in 60 s");
    }

    static void assertCutsAt(JsonNode analysis, double... seconds) {
        List<Double> hardCuts = new ArrayList<>();
        analysis.get("cuts").forEach(cut -> {
            if (cut.get("kind").asText().equals("cut")) {
                hardCuts.add(cut.get("time").asDouble());
            }
        });
        assertEquals(seconds.length, hardCuts.size(), "hard cuts " + hardCuts);
        for (int i = 0; i < seconds.length; i++) {
            assertEquals(seconds[i], hardCuts.get(i), 1.0 / 25 + 1e-6, "cut " + i + " within one frame");
        }
    }

    @Test
    void variantAStartsAJobAndStatusReturnsTheAnalysis() throws Exception {
        Api api = server.alice();
        Api.Response done = Uploads.uploadA(api, Videos.withCuts(), "video/mp4", 2);
        String videoId = done.body().get("video_id").asText();
        Api.Response started = api.postJson("/sync/video_analysis", Map.of("video_id", videoId));
        assertEquals(200, started.status(), started::toString);
        String jobId = started.body().get("job_id").asText();
        assertTrue(started.body().get("analysis_id").asText().startsWith("ana_"));
        assertTrue(List.of("pending", "processing", "finished")
                .contains(started.body().get("status").asText()));

        JsonNode status = awaitJob(api, jobId);
        assertEquals("finished", status.get("status").asText(), status::toString);
        assertEquals("analysis", status.get("kind").asText());
        assertEquals(1.0, status.get("progress").asDouble());
        JsonNode analysis = status.get("analysis");
        assertEquals(1, analysis.get("version").asInt());
        assertEquals(6.0, analysis.at("/video/duration").asDouble(), 0.05);
        assertCutsAt(analysis, 2.0, 4.0);
        assertEquals(3, analysis.get("scenes").size());
        assertEquals(0.1, analysis.at("/energy/hop").asDouble());
        assertEquals(60, analysis.at("/energy/values").size(), 1);
        assertTrue(GenreCatalog.builtIn()
                .find(analysis.at("/suggestions/genre").asText())
                .isPresent());
        double lufs = analysis.at("/audio/integrated_lufs").asDouble();
        assertTrue(lufs < -3 && lufs > -40, "a full-scale-ish sine: " + lufs);

        // Asking again returns the same analysis rather than starting another.
        Api.Response again = api.postJson("/sync/video_analysis", Map.of("video_id", videoId));
        assertEquals(jobId, again.body().get("job_id").asText());
    }

    @Test
    void variantBAnswersWithTheAnalysisItself() {
        Api api = server.alice();
        Api.Response done = Uploads.uploadB(api, Videos.withCuts(), 3);
        String taskId = done.body().get("taskid").asText();
        Api.Response r = api.postJson("/sync_video_analysis", Map.of("taskid", taskId));
        assertEquals(200, r.status(), r::toString);
        assertEquals(taskId, r.body().get("taskid").asText());
        assertFalse(r.body().get("message").asText().isBlank());
        assertCutsAt(r.body().get("analysis"), 2.0, 4.0);
    }

    @Test
    void badRequests() {
        Api api = server.alice();
        UploadErrorsTest.assertError(
                api.postJson("/sync/video_analysis", Map.of()), 400, "invalid_parameter", "video_id");
        UploadErrorsTest.assertError(
                api.postJson("/sync/video_analysis", "{oops"), 400, "invalid_parameter", "request body");
        UploadErrorsTest.assertError(
                api.postJson("/sync/video_analysis", Map.of("video_id", "vid_nope")), 404, "not_found", "video_id");
        UploadErrorsTest.assertError(api.postJson("/sync/status", Map.of()), 400, "invalid_parameter", "job_id");
        UploadErrorsTest.assertError(
                api.postJson("/sync_video_analysis", Map.of()), 400, "invalid_parameter", "taskid");
        UploadErrorsTest.assertError(
                api.postJson("/sync_video_analysis", Map.of("taskid", "task_nope")), 404, "not_found", "taskid");

        Api.Response unknown = api.postJson("/sync/status", Map.of("job_id", "job_nope"));
        assertEquals(200, unknown.status());
        assertEquals("inactive", unknown.body().get("status").asText());
        assertTrue(unknown.body().get("message").asText().contains("job_nope"));

        String task = Uploads.initB(api, "v.mp4");
        UploadErrorsTest.assertError(
                api.postJson("/sync_video_analysis", Map.of("taskid", task)), 409, "wrong_state", "taskid");
    }

    @Test
    void anotherUsersVideoAndJobAreUnknown() throws Exception {
        Api alice = server.alice();
        Api bob = server.bob();
        Api.Response done = Uploads.uploadA(alice, Videos.silentMp4(), "video/mp4", 1);
        String videoId = done.body().get("video_id").asText();
        UploadErrorsTest.assertError(
                bob.postJson("/sync/video_analysis", Map.of("video_id", videoId)), 404, "not_found", "video_id");
        String jobId = alice.postJson("/sync/video_analysis", Map.of("video_id", videoId))
                .body()
                .get("job_id")
                .asText();
        assertEquals(
                "inactive",
                bob.postJson("/sync/status", Map.of("job_id", jobId))
                        .body()
                        .get("status")
                        .asText());
        JsonNode status = awaitJob(alice, jobId);
        assertEquals("finished", status.get("status").asText(), status::toString);
        assertFalse(status.at("/analysis/video/has_audio").asBoolean());
    }
}
