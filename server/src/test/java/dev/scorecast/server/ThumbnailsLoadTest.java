package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28's critical item: thumbnail strips must not stall a node. 32 strip requests at once on a
 * 40 s 1080p video (29 different counts, so 29 different decodes asked for) while another user polls
 * the status call and a third listens to a live stream. Before the strip pool, every strip decoded
 * the whole video on a request's virtual thread and the node's few carrier threads were pinned:
 * another user's cheapest call waited 20 s at p99 (issue 28).
 *
 * <p>Tagged slow (bin/test --all, CI): a load test on the wall clock (32 strips at once while others poll
 * and listen), 19 s; ThumbnailsTest stays in the fast tier.
 */
@Tag("slow")
class ThumbnailsLoadTest {
    @TempDir
    Path data;

    @Test
    void stripsOnALongVideoDoNotStallOtherUsersOrLiveAudio() throws Exception {
        Path video = Videos.make(
                "long-1080p.mp4",
                "-f lavfi -i testsrc2=size=1920x1080:rate=30:duration=40"
                        + " -c:v libx264 -preset ultrafast -crf 32 -pix_fmt yuv420p");
        try (TestServer server = TestServer.start(data)) {
            Api alice = server.alice();
            String videoId = Uploads.uploadA(alice, video, "video/mp4", 4)
                    .body()
                    .get("video_id")
                    .asText();
            Api bob = server.bob();
            Api carol = server.api(server.server.keys().create("carol"));
            Api.Response stream = carol.postJson("/player/create-stream", "");
            assertEquals(201, stream.status(), stream::toString);
            assertEquals(
                    200,
                    carol.postJson("/player/start", Map.of("experience_id", "lofi-rainy-desk"))
                            .status());
            try (LiveAudio listener = LiveAudio.open(
                    "http://127.0.0.1:" + server.port() + "/player/stream?format=wav",
                    stream.body().get("session_token").asText())) {
                listener.awaitBytes(48_000 * 4, 10);
                long listeningFrom = System.nanoTime();

                List<Long> statusMillis = Collections.synchronizedList(new ArrayList<>());
                AtomicBoolean stripsDone = new AtomicBoolean();
                Thread poller = Thread.ofPlatform().start(() -> {
                    while (!stripsDone.get()) {
                        long start = System.nanoTime();
                        Api.Response r = bob.postJson("/sync/status", Map.of("job_id", "job_nothing"));
                        statusMillis.add((System.nanoTime() - start) / 1_000_000);
                        assertEquals(200, r.status(), r::toString);
                        try {
                            Thread.sleep(25); // a client's pace between polls, not a wait for state
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                });

                CountDownLatch go = new CountDownLatch(1);
                List<CompletableFuture<Api.Response>> strips = new ArrayList<>();
                for (int i = 0; i < 32; i++) {
                    int count = 4 + i % 29;
                    strips.add(CompletableFuture.supplyAsync(
                            () -> {
                                try {
                                    go.await();
                                } catch (InterruptedException e) {
                                    throw new IllegalStateException(e);
                                }
                                return alice.get("/sync/thumbnails?video_id=" + videoId + "&count=" + count);
                            },
                            Thread::startVirtualThread));
                }
                long started = System.nanoTime();
                go.countDown();
                int made = 0;
                int refused = 0;
                for (var strip : strips) {
                    Api.Response r = strip.join();
                    if (r.status() == 200) {
                        made++;
                    } else {
                        assertEquals(503, r.status(), r::toString);
                        assertNotNull(r.header("Retry-After"), "503 says when to come back");
                        refused++;
                    }
                }
                double stripSeconds = (System.nanoTime() - started) / 1e9;
                stripsDone.set(true);
                poller.join();

                List<Long> sorted = new ArrayList<>(statusMillis);
                Collections.sort(sorted);
                long p99 = sorted.get((int) Math.ceil(sorted.size() * 0.99) - 1);
                double least = listener.leastBuffered(1.0);
                System.out.printf(
                        "thumbnails under load: %d strips made, %d refused in %.1f s; %d status calls, p50 %d ms,"
                                + " p99 %d ms, max %d ms; live listener's least buffer %.2f s (1 s preroll) over %.1f s%n",
                        made,
                        refused,
                        stripSeconds,
                        sorted.size(),
                        sorted.get(sorted.size() / 2),
                        p99,
                        sorted.getLast(),
                        least,
                        (System.nanoTime() - listeningFrom) / 1e9);
                assertTrue(made >= 8, "the pool made strips: " + made);
                assertTrue(sorted.size() >= 20, "polled throughout: " + sorted.size());
                assertTrue(p99 <= 200, "another user's status call p99 " + p99 + " ms");
                assertTrue(least > 0, "the live listener never ran dry: least buffer " + least + " s");
                assertTrue(stripSeconds < 45, "every strip answered within its deadline: " + stripSeconds + " s");
            }
        }
    }
}
