package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.scorecast.server.analysis.EngineAnalysis;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28, duplicate runs: two overlapping runs of one job. Node A runs an analysis and stalls in it
 * (a long pause: its heartbeat comes every 10 s), node B sees A's hold as dead after 6 s of its own
 * heartbeat window and runs the job again, to its end. When A's run then fails late, it must not
 * undo B's: before, A's failure overwrote {@code finished} with {@code error}; now A's run holds an
 * old token, writes nothing and keeps nothing.
 */
class DuplicateRunTest {
    @TempDir
    Path data;

    @Test
    void aRunTakenOverByAnotherWorkerWritesNothingOverTheNewerRun() throws Exception {
        var aStarted = new CountDownLatch(1);
        var releaseA = new CountDownLatch(1);
        var aReturned = new AtomicBoolean();
        var real = EngineAnalysis.create();
        Map<String, String> nodeA = Map.of(
                "SCORECAST_NODE_ID", "node-a", "SCORECAST_JOB_HEARTBEAT_SECONDS", "10", "SCORECAST_WORKERS", "1");
        try (TestServer a = TestServer.start(data, nodeA, (video, wav, facts, progress) -> {
            aStarted.countDown();
            try {
                releaseA.await(120, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            aReturned.set(true);
            throw new IllegalStateException("node A's run fails late, after node B finished the job");
        })) {
            Api alice = a.alice();
            String videoId = Uploads.uploadA(alice, Videos.withCuts(), "video/mp4", 1)
                    .body()
                    .get("video_id")
                    .asText();
            Api.Response started = alice.postJson("/sync/video_analysis", Map.of("video_id", videoId));
            String jobId = started.body().get("job_id").asText();
            assertTrue(aStarted.await(60, TimeUnit.SECONDS), "node A runs the job");

            Map<String, String> nodeB = Map.of(
                    "SCORECAST_NODE_ID", "node-b", "SCORECAST_JOB_HEARTBEAT_SECONDS", "1", "SCORECAST_WORKERS", "1");
            try (TestServer b = TestServer.start(data, nodeB, real)) {
                JsonNode finished = AnalysisFlowTest.awaitJob(b.alice(), jobId);
                assertEquals(
                        "finished",
                        finished.get("status").asText(),
                        "node B ran the job again, to its end: " + finished);
                String result = resultKey(b, jobId);
                assertTrue(Files.exists(data.resolve("files").resolve(result)));

                releaseA.countDown();
                long deadline = System.nanoTime() + 30_000_000_000L;
                while (!(aReturned.get() && runsEnded(a) >= 1) && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                assertTrue(aReturned.get() && runsEnded(a) >= 1, "node A's run ended");
                JsonNode after = b.alice()
                        .postJson("/sync/status", Map.of("job_id", jobId))
                        .body();
                assertEquals(
                        "finished",
                        after.get("status").asText(),
                        "node A's late failure did not overwrite the end: " + after);
                assertEquals(result, resultKey(b, jobId), "the result is still node B's");
                assertTrue(Files.exists(data.resolve("files").resolve(result)));
                try (var files =
                        Files.list(data.resolve("files").resolve(result).getParent())) {
                    assertEquals(1, files.count(), "one result file: node A kept nothing");
                }
            }
        } finally {
            releaseA.countDown();
        }
    }

    private static String resultKey(TestServer server, String jobId) throws Exception {
        try (var connection = DriverManager.getConnection("jdbc:sqlite:" + server.dataDir.resolve("scorecast.db"));
                var statement = connection.prepareStatement("SELECT result_key FROM analyses WHERE job_id = ?")) {
            statement.setString(1, jobId);
            try (var rows = statement.executeQuery()) {
                rows.next();
                return rows.getString(1);
            }
        }
    }

    /** Job runs this node has ended, from its metrics. */
    private static long runsEnded(TestServer server) {
        long runs = 0;
        for (String line : server.api(null).get("/metrics").raw().body().split("\n")) {
            if (line.startsWith("scorecast_job_seconds_count")) {
                runs += Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return runs;
    }
}
