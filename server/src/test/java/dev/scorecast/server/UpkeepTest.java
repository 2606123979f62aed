package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28, upkeep under backlog: the sweeps were db-scheduler recurring tasks, which waited for a
 * free worker thread and came after every queued job, so a sustained backlog starved them. With the
 * node's one worker busy and more jobs queued, an upload past its expiry is still removed at the
 * sweep's next turn (virtual time moved past it).
 */
class UpkeepTest {
    @TempDir
    Path data;

    @Test
    void sweepsRunOnTimeWhateverTheQueueHolds() throws Exception {
        var clock = new VirtualClock(Instant.now());
        var held = new HeldAnalysis();
        try (TestServer server = TestServer.start(
                data, Map.of("SCORECAST_WORKERS", "1", "SCORECAST_QUOTA_ANALYSES", "10"), held, clock)) {
            Api alice = server.alice();
            // The one worker busy, two more jobs behind it.
            for (Path video : new Path[] {Videos.silentMp4(), Videos.h264Aac(), Videos.withCuts()}) {
                String id = Uploads.uploadA(alice, video, "video/mp4", 1)
                        .body()
                        .get("video_id")
                        .asText();
                assertEquals(
                        200,
                        alice.postJson("/sync/video_analysis", Map.of("video_id", id))
                                .status());
            }
            held.awaitStart(30);
            String abandoned = Uploads.initA(alice, "abandoned.mp4", 1000, "video/mp4");
            assertEquals(
                    200, alice.get("/sync/upload_status?upload_id=" + abandoned).status());

            clock.advance(Duration.ofHours(24).plus(Duration.ofMinutes(11)));
            long deadline = System.nanoTime() + 15_000_000_000L;
            int status = 200;
            while (status == 200 && System.nanoTime() < deadline) {
                status = alice.get("/sync/upload_status?upload_id=" + abandoned).status();
                Thread.sleep(100);
            }
            assertEquals(404, status, "the expired upload was swept while the worker was busy and jobs waited");
            assertEquals(
                    2,
                    server.count("SELECT COUNT(*) FROM jobs WHERE status = 'pending'"),
                    "the backlog was still there");
            held.release();
        }
    }
}
