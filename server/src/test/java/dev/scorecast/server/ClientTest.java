package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.client.ApiException;
import dev.scorecast.client.Scorecast;
import dev.scorecast.client.WebhookSignature;
import dev.scorecast.client.model.CreateWebhookRequest;
import dev.scorecast.client.model.SyncAAnalyseRequest;
import dev.scorecast.client.model.SyncAExecuteRequest;
import dev.scorecast.client.model.SyncAGenerateRequest;
import dev.scorecast.client.model.SyncAInitializeRequest;
import dev.scorecast.client.model.SyncAStatus200Response;
import dev.scorecast.client.model.SyncAStatusRequest;
import dev.scorecast.server.webhooks.Receiver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java client (module client: generated from docs/openapi.json, with the hand-written upload and
 * webhook helpers) against a real server: a video uploaded in one call (parallel chunks) and a
 * resumed one, analysed, planned and executed through the generated API, and a webhook registered
 * whose delivery the client's helper verifies.
 */
class ClientTest {
    @TempDir
    Path data;

    @Test
    void theGeneratedClientScoresAVideoAndChecksAWebhook() throws Exception {
        // Small chunks, so that one upload is several chunks in parallel.
        try (Receiver receiver = Receiver.start().answer(200);
                TestServer server = TestServer.start(
                        data,
                        Map.of(
                                "SCORECAST_MAX_CHUNK_BYTES",
                                "256KiB",
                                "SCORECAST_WEBHOOKS_ALLOW_LOCAL",
                                "true",
                                "SCORECAST_WEBHOOKS_POLL_MS",
                                "50"))) {
            Scorecast scorecast = Scorecast.connect("http://127.0.0.1:" + server.port(), server.aliceKey);

            long t0 = System.nanoTime();
            Path larger = Videos.largerMp4();
            long t1 = System.nanoTime();
            var uploaded = scorecast.uploadVideo(larger);
            assertEquals(Files.size(larger), uploaded.getSize());
            assertTrue(Files.size(larger) > 4 * 256 * 1024, "several chunks");

            // A resumed upload: two chunks sent before (by hand, as an earlier run would have), the rest by
            // resumeUpload.
            byte[] bytes = Files.readAllBytes(larger);
            String id = scorecast
                    .sync()
                    .syncAInitialize(new SyncAInitializeRequest()
                            .fileName("again.mp4")
                            .fileSize((long) bytes.length)
                            .fileType("video/mp4"))
                    .getUploadId();
            List<byte[]> chunks = new ArrayList<>();
            for (int at = 0; at < bytes.length; at += 256 * 1024) {
                chunks.add(Arrays.copyOfRange(bytes, at, Math.min(bytes.length, at + 256 * 1024)));
            }
            Api api = server.alice();
            assertEquals(200, Uploads.chunkA(api, id, 0, chunks.get(0)).status());
            assertEquals(200, Uploads.chunkA(api, id, 2, chunks.get(2)).status());
            var resumed = scorecast.resumeUpload(larger, id);
            assertEquals(uploaded.getCrc32c(), resumed.getCrc32c(), "the same bytes, whole");

            // Bob's key sees none of it: the generated client reports the 404.
            Scorecast bob = Scorecast.connect("http://127.0.0.1:" + server.port(), server.bobKey);
            ApiException refused =
                    Assertions.assertThrows(ApiException.class, () -> bob.sync().syncAUploadStatus(id));
            assertEquals(404, refused.getCode());

            long t2 = System.nanoTime();
            var video = scorecast.uploadVideo(Videos.h264Aac());
            var analysis = scorecast.sync().syncAAnalyse(new SyncAAnalyseRequest().videoId(video.getVideoId()));
            assertNotNull(analysis.getEventsUrl());
            SyncAStatus200Response analysed = await(scorecast, analysis.getJobId());
            assertEquals("finished", analysed.getStatus().getValue(), analysed::toString);
            var plan = scorecast
                    .sync()
                    .syncAGenerate(new SyncAGenerateRequest()
                            .analysisId(analysis.getAnalysisId())
                            .seed(4L));
            var execution = scorecast.sync().syncAExecute(new SyncAExecuteRequest().planId(plan.getPlanId()));
            SyncAStatus200Response done = await(scorecast, execution.getJobId());
            assertEquals("finished", done.getStatus().getValue(), done::toString);
            assertTrue(done.getLinks().containsKey("video"), done::toString);

            long t3 = System.nanoTime();
            System.out.printf(
                    "client: making the video %d ms, two uploads %d ms, upload, analysis and execution %d ms%n",
                    (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, (t3 - t2) / 1_000_000);
            var hook = scorecast
                    .webhooks()
                    .createWebhook(new CreateWebhookRequest()
                            .url(receiver.url("/client"))
                            .events(List.of(CreateWebhookRequest.EventsEnum.EXECUTION_FINISHED)));
            scorecast.webhooks().testWebhook(hook.getWebhookId());
            Receiver.Received got = receiver.next(Duration.ofSeconds(20));
            assertTrue(WebhookSignature.verify(hook.getSecret(), got.header(WebhookSignature.HEADER), got.body()));
            assertFalse(
                    WebhookSignature.verify(hook.getSecret(), got.header(WebhookSignature.HEADER), "{}".getBytes()));
            assertEquals(1, scorecast.webhooks().listWebhooks().getWebhooks().size());
        }
    }

    private static SyncAStatus200Response await(Scorecast scorecast, String jobId) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (true) {
            SyncAStatus200Response status = scorecast.sync().syncAStatus(new SyncAStatusRequest().jobId(jobId));
            String s = status.getStatus().getValue();
            if (!s.equals("pending") && !s.equals("processing") || System.nanoTime() > deadline) {
                return status;
            }
            Thread.sleep(100);
        }
    }
}
