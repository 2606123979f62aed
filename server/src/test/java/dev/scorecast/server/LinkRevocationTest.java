package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.scorecast.server.webhooks.Receiver;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Links no request made carry the key their execution was started with, so revoking that key ends
 * them: the links inside results.json (written by the execution's job) and the links in its
 * execution.finished webhook payload (built by the dispatcher). Before, those links carried no key
 * and worked for their 7 days after the key was revoked; only a rotation of the link secret ended them.
 */
class LinkRevocationTest {
    /** Answers held to /openapi.json (CheckedHttpClient). */
    private static final HttpClient CLIENT = CheckedHttpClient.of(
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build());

    private static final Map<String, String> LOCAL =
            Map.of("SCORECAST_WEBHOOKS_ALLOW_LOCAL", "true", "SCORECAST_WEBHOOKS_POLL_MS", "50");

    @TempDir
    Path data;

    @Test
    void revokingAKeyEndsTheLinksInResultsJsonAndInWebhookPayloads() throws Exception {
        try (Receiver receiver = Receiver.start().answer(200);
                TestServer server = TestServer.start(data, LOCAL)) {
            String key = server.server.keys().create("carol");
            String otherKey = server.server.keys().create("carol");
            Api carol = server.api(key);
            WebhooksTest.register(server.api(otherKey), receiver.url("/carol"), List.of("execution.finished"));

            String videoId = Uploads.uploadA(carol, Videos.h264Aac(), "video/mp4", 2)
                    .body()
                    .get("video_id")
                    .asText();
            Api.Response analysis = carol.postJson("/sync/video_analysis", Map.of("video_id", videoId));
            assertEquals(
                    "finished",
                    AnalysisFlowTest.awaitJob(
                                    carol, analysis.body().get("job_id").asText())
                            .get("status")
                            .asText());
            String planId = carol.postJson(
                            "/sync/generate",
                            Map.of(
                                    "analysis_id",
                                    analysis.body().get("analysis_id").asText(),
                                    "seed",
                                    5))
                    .body()
                    .get("plan_id")
                    .asText();
            String jobId = carol.postJson("/sync/execute", Map.of("plan_id", planId))
                    .body()
                    .get("job_id")
                    .asText();
            JsonNode status = ScoringFlowTest.awaitExecution(carol, "/sync/status", Map.of("job_id", jobId));
            assertEquals("finished", status.get("status").asText(), status::toString);

            JsonNode results = Api.JSON.readTree(
                    ScoringFlowTest.fetch(status.get("queryurl").asText()));
            JsonNode payload =
                    Api.JSON.readTree(receiver.next(Duration.ofSeconds(20)).body());
            assertEquals("execution.finished", payload.get("type").asText());
            String keyId = keyOf(status.get("url").asText());
            assertNotNull(keyId, "a link made for a request carries its key");
            // The links of the job and of the dispatcher carry the key the execution was started with.
            Map<String, String> fromResults = Map.of(
                    "video",
                    results.at("/links/video").asText(),
                    "plan",
                    results.at("/links/plan").asText());
            Map<String, String> fromPayload = Map.of(
                    "url",
                    payload.at("/data/url").asText(),
                    "plan",
                    payload.at("/data/links/plan").asText(),
                    "queryurl",
                    payload.at("/data/queryurl").asText());
            for (var link : List.of(fromResults, fromPayload)) {
                for (String url : link.values()) {
                    assertEquals(keyId, keyOf(url), "carries the execution's key: " + url);
                    assertEquals(200, statusOf(url), "works before the key is revoked: " + url);
                }
            }
            // The same files fetched through the user's other key: its links carry that key.
            JsonNode throughOther =
                    ScoringFlowTest.awaitExecution(server.api(otherKey), "/sync/status", Map.of("job_id", jobId));
            assertNotEquals(keyId, keyOf(throughOther.get("url").asText()));

            assertTrue(server.server.keys().revoke(key));
            server.server.revokedKeys().poll(); // what the node's next poll (within a second) reads
            for (var link : List.of(fromResults, fromPayload)) {
                for (String url : link.values()) {
                    assertEquals(404, statusOf(url), "ended with its key: " + url);
                }
            }
            HttpResponse<String> refused = CLIENT.send(
                    HttpRequest.newBuilder(URI.create(fromResults.get("video"))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals("key", Api.JSON.readTree(refused.body()).at("/field").asText(), refused.body());
            assertEquals(200, statusOf(throughOther.get("url").asText()), "the other key's links go on");
        }
    }

    /** The key id a link carries ({@code key=}), or null. */
    private static String keyOf(String url) {
        for (String part : URI.create(url).getRawQuery().split("&")) {
            if (part.startsWith("key=")) {
                return part.substring(4);
            }
        }
        return null;
    }

    private static int statusOf(String url) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }
}
