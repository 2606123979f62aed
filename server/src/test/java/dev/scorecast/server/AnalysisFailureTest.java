package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.scorecast.engine.error.Unprocessable;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A failed analysis reports its reason through status (A) and as the refusal it was (B). */
class AnalysisFailureTest {
    @TempDir
    Path data;

    @Test
    void failuresKeepTheirCodeAndMessage() throws Exception {
        try (TestServer server = TestServer.start(data, Map.of(), (video, wav, facts, progress) -> {
            throw new Unprocessable(
                    "file", "No frame of the video could be decoded; re-encode it and upload it again.");
        })) {
            Api api = server.alice();
            String videoId = Uploads.uploadA(api, Videos.silentMp4(), "video/mp4", 1)
                    .body()
                    .get("video_id")
                    .asText();
            String jobId = api.postJson("/sync/video_analysis", Map.of("video_id", videoId))
                    .body()
                    .get("job_id")
                    .asText();
            JsonNode status = AnalysisFlowTest.awaitJob(api, jobId);
            assertEquals("error", status.get("status").asText());
            assertEquals("unprocessable", status.get("error").asText());
            assertEquals(
                    "No frame of the video could be decoded; re-encode it and upload it again.",
                    status.get("message").asText());

            String task = Uploads.uploadB(api, Videos.silentMp4(), 1)
                    .body()
                    .get("taskid")
                    .asText();
            UploadErrorsTest.assertError(
                    api.postJson("/sync_video_analysis", Map.of("taskid", task)), 422, "unprocessable", "file");
        }
    }

    @Test
    void anErrorOfAnyKindEndsTheJobInsteadOfARetryWithoutEnd() throws Exception {
        try (TestServer server = TestServer.start(data, Map.of(), (video, wav, facts, progress) -> {
            throw new StackOverflowError("a decoder recursed without end");
        })) {
            Api api = server.alice();
            String videoId = Uploads.uploadA(api, Videos.silentMp4(), "video/mp4", 1)
                    .body()
                    .get("video_id")
                    .asText();
            String jobId = api.postJson("/sync/video_analysis", Map.of("video_id", videoId))
                    .body()
                    .get("job_id")
                    .asText();
            JsonNode status = AnalysisFlowTest.awaitJob(api, jobId);
            assertEquals("error", status.get("status").asText(), status::toString);
            assertEquals("internal_error", status.get("error").asText(), status::toString);
        }
    }
}
