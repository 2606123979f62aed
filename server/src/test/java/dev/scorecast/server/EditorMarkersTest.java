package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The editor's markers at generate, both variants: a marker file of each kind, and what a bad one or a bad marker is answered. */
class EditorMarkersTest {
    @TempDir
    static Path data;

    static TestServer server;
    static Api api;
    static String taskId;
    static String analysis;
    static String analysisId;

    /** Resolve's "Timeline Markers to EDL" of the 12.012 s cut at 29.97 (timeline from 01:00:00:00). */
    static final String EDL = """
            TITLE: harbour-cut
            FCM: NON-DROP FRAME

            001  001      V     C        01:00:02:00 01:00:02:01 01:00:02:00 01:00:02:01 \s
             |C:ResolveColorBlue |M:hit |D:1

            002  001      V     C        01:00:06:00 01:00:06:01 01:00:06:00 01:00:06:01 \s
             |C:ResolveColorRed |M:Drop |D:1
            """;

    @BeforeAll
    static void analyse() throws Exception {
        server = TestServer.start(data);
        api = server.alice();
        Api.Response done = Uploads.uploadB(api, Videos.ntscScenes(), 1);
        taskId = done.body().get("taskid").asText();
        Api.Response analysed = api.postJson("/sync_video_analysis", Map.of("taskid", taskId));
        assertEquals(200, analysed.status(), analysed::toString);
        analysis = analysed.body().get("analysis").toString();
        Api.Response a = Uploads.uploadA(api, Videos.ntscScenes(), "video/mp4", 1);
        Api.Response started = api.postJson(
                "/sync/video_analysis",
                Map.of("video_id", a.body().get("video_id").asText()));
        AnalysisFlowTest.awaitJob(api, started.body().get("job_id").asText());
        analysisId = started.body().get("analysis_id").asText();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Api.Response generateB(String markersFile) {
        return api.postMultipart(
                "/sync_generate",
                Map.of("analysis", analysis, "payload", Api.write(Map.of("taskid", taskId, "genre", "house"))),
                "markers_file",
                markersFile.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aMarkerFileShapesThePlan() {
        Api.Response generated = generateB(EDL);
        assertEquals(200, generated.status(), generated::toString);
        JsonNode plan = generated.body().get("plan");
        JsonNode markers = plan.get("markers");
        assertEquals(2, markers.size(), plan::toString);
        assertEquals("hit", markers.get(0).get("kind").asText());
        assertEquals(
                60 * 1001 / 30000.0,
                markers.get(0).get("time").asDouble(),
                1e-6,
                "01:00:02:00 is frame 60 of the video");
        assertEquals("drop", markers.get(1).get("kind").asText());
        boolean dropStarts = false;
        for (JsonNode s : plan.get("sections")) {
            dropStarts |= Math.abs(s.get("start").asDouble() - 180 * 1001 / 30000.0) < 1e-6
                    && s.at("/hit/kind").asText().equals("drop");
        }
        assertTrue(dropStarts, "a section starts on the drop: " + plan.get("sections"));
    }

    @Test
    void badFilesAndMarkersAreRefusedNamingWhere() {
        Api.Response bad =
                generateB(EDL.replace("01:00:06:00 01:00:06:01 01:00:06:00", "01:00:06:00 01:00:06:01 01:00:6:00"));
        UploadErrorsTest.assertError(bad, 422, "unprocessable", "markers_file");
        assertTrue(bad.body().get("message").asText().contains("line 7"), bad::toString);
        Api.Response late =
                generateB(EDL.replace("01:00:06:00 01:00:06:01 01:00:06:00", "01:00:16:00 01:00:16:01 01:00:16:00"));
        UploadErrorsTest.assertError(late, 422, "unprocessable", "markers_file");
        assertTrue(late.body().get("message").asText().contains("outside the video"), late::toString);

        UploadErrorsTest.assertError(
                api.postJson(
                        "/sync/generate",
                        Map.of("analysis_id", analysisId, "markers", List.of(Map.of("time", 2, "kind", "boom")))),
                400,
                "invalid_parameter",
                "markers[0].kind");
        UploadErrorsTest.assertError(
                api.postJson(
                        "/sync/generate",
                        Map.of("analysis_id", analysisId, "markers", List.of(Map.of("time", "soon", "kind", "hit")))),
                400,
                "invalid_parameter",
                "markers[0].time");
        UploadErrorsTest.assertError(
                api.postJson(
                        "/sync/generate",
                        Map.of(
                                "analysis_id",
                                analysisId,
                                "markers",
                                List.of(Map.of("time", 4, "kind", "stop"), Map.of("time", 4.3, "kind", "start")))),
                422,
                "unprocessable",
                "markers[1].time");
        Api.Response ok = api.postJson(
                "/sync/generate",
                Map.of(
                        "analysis_id",
                        analysisId,
                        "genre",
                        "house",
                        "markers",
                        List.of(Map.of("time", 3, "kind", "mute until"), Map.of("time", 5, "kind", "resume"))));
        assertEquals(200, ok.status(), ok::toString);
        assertEquals("mute_until", ok.body().at("/plan/markers/0/kind").asText());
    }
}
