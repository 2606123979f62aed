package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.server.jobs.JobRunner;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job is committed before its run is scheduled (db-scheduler writes on a connection of its own).
 * A database restarting between the two left the
 * job pending with no run to come, until a restart. Here the run is removed by hand where the
 * database would have lost it: the upkeep sweep queues it again once the job has waited longer
 * than {@link JobRunner#UNSCHEDULED_AFTER} (virtual time), and it finishes.
 */
class UnscheduledJobTest {
    @TempDir
    Path data;

    @Test
    void aPendingJobWithNoRunQueuedIsQueuedAgainAndFinishes() throws Exception {
        var clock = new VirtualClock(Instant.now());
        var held = new HeldAnalysis();
        try (TestServer server = TestServer.start(data, Map.of("SCORECAST_WORKERS", "1"), held, clock)) {
            Api alice = server.alice();
            String busy = analyse(alice, Videos.silentMp4());
            assertTrue(held.awaitStart(30), "the first analysis started");
            // The one worker is busy, so the second job waits: its run is taken away as a lost schedule would be.
            String lost = analyse(alice, Videos.h264Aac());
            server.update("DELETE FROM scheduled_tasks WHERE task_instance = '" + lost + "'");
            held.release();
            assertEquals("finished", awaitEnd(alice, busy, clock, Duration.ZERO));

            assertEquals("pending", state(alice, lost), "nothing runs a job whose run was lost");
            assertEquals(
                    "finished",
                    awaitEnd(alice, lost, clock, JobRunner.UNSCHEDULED_AFTER.plusSeconds(1)),
                    "the sweep queued the job again once it had waited with no run");
        }
    }

    private static String analyse(Api alice, Path video) {
        String id = Uploads.uploadA(alice, video, "video/mp4", 1)
                .body()
                .get("video_id")
                .asText();
        var started = alice.postJson("/sync/video_analysis", Map.of("video_id", id));
        assertEquals(200, started.status(), started::toString);
        return started.body().get("job_id").asText();
    }

    private static String state(Api alice, String jobId) {
        return alice.postJson("/sync/status", Map.of("job_id", jobId))
                .body()
                .get("status")
                .asText();
    }

    /**
     * Moves virtual time on by {@code step} once (not more: the job's own deadline is on the same clock),
     * then waits until the job ends (60 s of real time at most).
     */
    private static String awaitEnd(Api alice, String jobId, VirtualClock clock, Duration step) throws Exception {
        clock.advance(step);
        long deadline = System.nanoTime() + 60_000_000_000L;
        String status = state(alice, jobId);
        while (!status.equals("finished") && !status.equals("error") && System.nanoTime() < deadline) {
            Thread.sleep(200);
            status = state(alice, jobId);
        }
        return status;
    }
}
