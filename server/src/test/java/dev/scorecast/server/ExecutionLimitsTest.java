package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ten executions per user at once, and an execution that survives a restart of the server. */
class ExecutionLimitsTest {
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

    static String plan(Api api) throws InterruptedException {
        Api.Response done = Uploads.uploadA(api, Videos.withCuts(), "video/mp4", 1);
        Api.Response started = api.postJson(
                "/sync/video_analysis",
                Map.of("video_id", done.body().get("video_id").asText()));
        AnalysisFlowTest.awaitJob(api, started.body().get("job_id").asText());
        Api.Response generated = api.postJson(
                "/sync/generate",
                Map.of(
                        "analysis_id",
                        started.body().get("analysis_id").asText(),
                        "genre",
                        "ambient",
                        "multitrack",
                        false));
        assertEquals(200, generated.status(), generated::toString);
        return generated.body().get("plan_id").asText();
    }

    // Tagged slow (bin/test --all): eleven executions run one after another, 23 s.
    @Test
    @Tag("slow")
    void theEleventhExecutionWaitsItsTurn() throws Exception {
        Api api = server.alice();
        String planId = plan(api);
        List<String> jobs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            Api.Response r = api.postJson("/sync/execute", Map.of("plan_id", planId));
            assertEquals(200, r.status(), r::toString);
            jobs.add(r.body().get("job_id").asText());
        }
        Api.Response refused = api.postJson("/sync/execute", Map.of("plan_id", planId));
        UploadErrorsTest.assertError(refused, 429, "busy", null);
        assertNotNull(refused.header("Retry-After"));
        // Another user is not held back by this one's queue.
        assertEquals(
                404,
                server.bob()
                        .postJson("/sync/execute", Map.of("plan_id", planId))
                        .status());
        for (String job : jobs) {
            JsonNode status = ScoringFlowTest.awaitExecution(api, "/sync/status", Map.of("job_id", job));
            assertEquals("finished", status.get("status").asText(), status::toString);
            // The plan asked for no stems: no link that could only answer 404.
            assertTrue(status.at("/links/stems").isMissingNode(), status::toString);
            assertTrue(status.at("/links/video").isTextual(), status::toString);
        }
        Api.Response again = api.postJson("/sync/execute", Map.of("plan_id", planId));
        assertEquals(200, again.status(), "room again once they finished");
        ScoringFlowTest.awaitExecution(
                api, "/sync/status", Map.of("job_id", again.body().get("job_id").asText()));
    }

    @Test
    void anExecutionCutOffByARestartIsRunAgain() throws Exception {
        Api api = server.alice();
        String planId = plan(api);
        Api.Response r = api.postJson("/sync/execute", Map.of("plan_id", planId));
        String jobId = r.body().get("job_id").asText();
        server.restart();
        JsonNode status = ScoringFlowTest.awaitExecution(server.alice(), "/sync/status", Map.of("job_id", jobId));
        assertEquals("finished", status.get("status").asText(), status::toString);
        assertEquals(
                200,
                ScoringFlowTest.CLIENT
                        .send(
                                HttpRequest.newBuilder(
                                                URI.create(status.get("url").asText()))
                                        .build(),
                                HttpResponse.BodyHandlers.discarding())
                        .statusCode());
    }
}
