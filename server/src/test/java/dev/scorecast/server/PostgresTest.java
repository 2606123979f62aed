package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.scorecast.server.webhooks.Receiver;
import dev.scorecast.server.webhooks.WebhookSigner;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scale-out database: the same migrations, keys, uploads and live-stream registry on
 * PostgreSQL, in a schema of its own ({@link PostgresSchema}).
 */
class PostgresTest {
    @TempDir
    Path data;

    @Test
    void uploadsWorkOnPostgres() throws Exception {
        inSchema(url -> {
            try (TestServer server = TestServer.start(data, Map.of("SCORECAST_DB_URL", url))) {
                Api.Response a = Uploads.uploadA(server.alice(), Videos.h264Aac(), "video/mp4", 3);
                assertEquals(200, a.status(), a::toString);
                Api.Response b = Uploads.uploadB(server.alice(), Videos.silentMp4(), 2);
                assertEquals(200, b.status(), b::toString);
                assertEquals(
                        404,
                        server.bob()
                                .get("/sync/upload_status?upload_id="
                                        + a.body().get("upload_id").asText())
                                .status());
                server.restart();
                assertEquals(
                        200,
                        server.alice()
                                .get("/sync/upload_status?upload_id="
                                        + a.body().get("upload_id").asText())
                                .status());
            }
        });
    }

    /** The stream registry's SQL (a partial unique index, INSERT ... ON CONFLICT) on PostgreSQL, with two nodes. */
    @Test
    void oneActiveStreamPerUserAcrossTwoNodesOnPostgres() throws Exception {
        inSchema(url -> {
            try (TestServer a = TestServer.start(data, Map.of("SCORECAST_DB_URL", url));
                    TestServer b = TestServer.start(data, Map.of("SCORECAST_DB_URL", url))) {
                Api aliceOnB = b.api(a.aliceKey);
                Api.Response created = a.alice().postJson("/player/create-stream", "");
                assertEquals(201, created.status(), created::toString);
                assertEquals(409, aliceOnB.postJson("/player/create-stream", "").status());
                Api.Response transport = aliceOnB.get("/player/transport");
                assertEquals(200, transport.status(), transport::toString);
                assertEquals(200, aliceOnB.postJson("/player/end_stream", "").status());
                assertEquals(404, a.alice().get("/player/transport").status());
                assertEquals(201, aliceOnB.postJson("/player/create-stream", "").status());
            }
        });
    }

    /**
     * Webhooks' SQL on PostgreSQL: the outbox written in the upload's transaction, the due query (in order per object),
     * claims, attempts and the listing; an upload.completed and a test event arrive signed, the second after a retry.
     */
    @Test
    void webhooksAreQueuedClaimedAndDeliveredOnPostgres() throws Exception {
        inSchema(url -> {
            try (var receiver = Receiver.start().answer(200, 500);
                    TestServer server = TestServer.start(
                            data,
                            Map.of(
                                    "SCORECAST_DB_URL",
                                    url,
                                    "SCORECAST_WEBHOOKS_ALLOW_LOCAL",
                                    "true",
                                    "SCORECAST_WEBHOOKS_POLL_MS",
                                    "50"))) {
                var hook = WebhooksTest.register(server.alice(), receiver.url("/pg"), List.of("upload.completed"));
                String webhookId = hook.get("webhook_id").asText();
                String test = server.alice()
                        .postJson("/webhooks/" + webhookId + "/test", "")
                        .body()
                        .get("delivery_id")
                        .asText();
                WebhooksTest.awaitDelivery(
                        server.alice(), webhookId, test, d -> d.get("attempts").size() == 1);
                Api.Response uploaded = Uploads.uploadA(server.alice(), Videos.silentMp4(), "video/mp4", 1);
                assertEquals(200, uploaded.status(), uploaded::toString);
                var received = receiver.await(() -> 2, Duration.ofSeconds(20));
                var event = Api.JSON.readTree(received.get(1).body());
                assertEquals("upload.completed", event.get("type").asText());
                assertEquals(
                        uploaded.body().get("video_id").asText(),
                        event.at("/data/video_id").asText());
                assertEquals(
                        true,
                        WebhookSigner.verify(
                                hook.get("secret").asText(),
                                received.get(1).header("Scorecast-Signature"),
                                received.get(1).body(),
                                Instant.now(),
                                Duration.ofMinutes(5)));
                assertEquals(
                        404,
                        server.bob()
                                .get("/webhooks/" + webhookId + "/deliveries")
                                .status());
                var listed = server.alice()
                        .get("/webhooks/" + webhookId + "/deliveries")
                        .body()
                        .get("deliveries");
                assertEquals(2, listed.size());
                assertEquals(500, listed.get(1).get("last_status_code").asInt(), listed::toString);
            }
        });
    }

    private static void inSchema(PostgresSchema.WithDatabase test) throws Exception {
        PostgresSchema.run(test);
    }
}
