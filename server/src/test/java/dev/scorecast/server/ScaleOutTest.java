package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.scorecast.server.Fleet.Node;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.SharedSecrets;
import dev.scorecast.server.downloads.DownloadLinks;
import dev.scorecast.server.storage.S3Proxy;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scale-out as it runs in production, on this machine: PostgreSQL, a real S3 server (S3Proxy) for
 * every file, two {@code api} node processes and two {@code worker} node processes, each with its
 * own data directory, all started with {@code scorecast serve --role}. Both variants run through
 * one API node and download through the other with links the first signed; then a worker is
 * killed with SIGKILL mid-execution, the store goes down for 10 s mid-execution, and an API node
 * is killed. Worker heartbeats are 1 s here (5 s by default), so a dead worker is found in ~6 s
 * instead of ~30 s; {@code SCORECAST_SCALEOUT_HEARTBEAT=5} runs it at the default (docs/BENCHMARKS.md).
 * Four JVMs and a store take minutes on two cores: tagged slow, run by {@code bin/test --all} (CI).
 * The throughput benchmark of the two layouts is ScaleOutThroughputTest, on a fleet of its own.
 */
@Tag("slow")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ScaleOutTest {
    private static final String BUCKET = Fleet.BUCKET;
    /** Answers held to /openapi.json (CheckedHttpClient). */
    private static final HttpClient HTTP = CheckedHttpClient.of(
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build());
    /** A dead worker's job must be running on another worker within this (issue 16). */
    private static final Duration FAILOVER_BOUND = Duration.ofMinutes(1);

    /** Kept when a test fails: the nodes' logs are in it. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    static Fleet fleet;
    static String dbUrl;
    static S3Proxy store;
    static Node apiA;
    static Node apiB;
    static Node worker1;
    static Node worker2;
    static String aliceKey;
    static String planId;
    static JsonNode firstExecution;

    @BeforeAll
    static void startFleet() throws Exception {
        fleet = Fleet.open(dir, "scaleout");
        dbUrl = fleet.dbUrl;
        store = fleet.store;
        aliceKey = fleet.key;
        // Started together: each JVM takes seconds to come up on two cores.
        apiA = fleet.launch("api", "api-a");
        apiB = fleet.launch("api", "api-b");
        worker1 = fleet.launch("worker", "worker-1");
        worker2 = fleet.launch("worker", "worker-2");
        for (Node node : List.of(apiA, apiB, worker1, worker2)) {
            node.awaitReady();
        }
    }

    @AfterAll
    static void stopFleet() throws Exception {
        for (Node node : new Node[] {apiA, apiB, worker1, worker2}) {
            if (node != null) {
                node.kill();
            }
        }
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    @Order(1)
    void bothVariantsRunOnTheWorkersAndDownloadThroughTheOtherApiNode() throws Exception {
        Api a = apiA.api();
        for (Node node : List.of(apiA, apiB, worker1, worker2)) {
            JsonNode ready = Api.JSON.readTree(node.get("/readyz").body());
            assertEquals("ok", ready.get("storage").asText(), ready::toString);
        }
        assertEquals(404, worker1.get("/sync/genres").statusCode(), "a worker serves no client API");

        // A 6 s video with two cuts keeps the campaign short; ScoringFlowTest checks the music itself.
        Api.Response video = Uploads.uploadA(a, Videos.withCuts(), "video/mp4", 2);
        assertEquals(200, video.status(), video::toString);
        Api.Response analysing = a.postJson(
                "/sync/video_analysis",
                Map.of("video_id", video.body().get("video_id").asText()));
        assertEquals(200, analysing.status(), analysing::toString);
        JsonNode analysed0 =
                AnalysisFlowTest.awaitJob(a, analysing.body().get("job_id").asText());
        assertEquals("finished", analysed0.get("status").asText(), analysed0::toString);
        String analysisId = analysing.body().get("analysis_id").asText();
        Api.Response generated =
                a.postJson("/sync/generate", Map.of("analysis_id", analysisId, "genre", "house", "seed", 7));
        assertEquals(200, generated.status(), generated::toString);
        planId = generated.body().get("plan_id").asText();
        Api.Response executed = a.postJson("/sync/execute", Map.of("plan_id", planId));
        assertEquals(200, executed.status(), executed::toString);
        firstExecution = ScoringFlowTest.awaitExecution(
                a,
                "/sync/status",
                Map.of("job_id", executed.body().get("job_id").asText()));
        assertEquals("finished", firstExecution.get("status").asText(), firstExecution::toString);
        assertPlayableVideo(fetchThrough(apiB, firstExecution.get("url").asText()));
        assertTrue(Api.JSON
                .readTree(fetchThrough(apiB, firstExecution.get("queryurl").asText()))
                .has("sync"));

        Api.Response uploaded = Uploads.uploadB(a, Videos.withCuts(), 2);
        assertEquals(200, uploaded.status(), uploaded::toString);
        String taskId = uploaded.body().get("taskid").asText();
        Api.Response analysed = a.postJson("/sync_video_analysis", Map.of("taskid", taskId));
        assertEquals(200, analysed.status(), analysed::toString);
        Api.Response planned = a.postMultipart(
                "/sync_generate",
                Map.of(
                        "analysis",
                        analysed.body().get("analysis").toString(),
                        "payload",
                        Api.write(Map.of("taskid", taskId, "genre", "lofi"))),
                null,
                null);
        assertEquals(200, planned.status(), planned::toString);
        Api.Response started = a.postMultipart(
                "/sync_execute",
                Map.of("plan", planned.body().get("plan").toString(), "payload", Api.write(Map.of("taskid", taskId))),
                null,
                null);
        assertEquals(200, started.status(), started::toString);
        JsonNode b = ScoringFlowTest.awaitExecution(
                a, "/sync_status", Map.of("execid", started.body().get("execid").asText()));
        assertEquals("finished", b.get("status").asText(), b::toString);
        assertPlayableVideo(fetchThrough(apiB, b.get("url").asText()));

        // The API nodes queued the jobs; only the workers ran them.
        assertEquals(0, jobRuns(apiA) + jobRuns(apiB), "an api node runs no jobs");
        assertTrue(jobRuns(worker1) + jobRuns(worker2) >= 4, "two analyses and two executions ran on the workers");
        String metrics = new String(apiA.get("/metrics").body());
        assertTrue(metrics.contains("scorecast_jobs{kind=\"execution\",state=\"queued\"} 0"), metrics);
        assertTrue(
                metrics.contains(
                        "scorecast_http_request_seconds_count{method=\"POST\",route=\"/sync/execute\",status=\"2xx\"} 1"),
                metrics);
    }

    @Test
    @Order(2)
    void aWorkerKilledMidExecutionLosesNothingTheOtherFinishesIt() throws Exception {
        Api a = apiA.api();
        Api.Response executed = a.postJson("/sync/execute", Map.of("plan_id", planId));
        assertEquals(200, executed.status(), executed::toString);
        String jobId = executed.body().get("job_id").asText();
        String executionId = executed.body().get("execution_id").asText();
        String holder = awaitHolder(jobId, Optional.empty());
        Node victim = holder.equals(worker1.nodeId) ? worker1 : worker2;
        Node survivor = victim == worker1 ? worker2 : worker1;
        assertTrue(Set.of(worker1.nodeId, worker2.nodeId).contains(holder), holder);

        long killed = System.nanoTime();
        victim.kill();
        String taker = awaitHolder(jobId, Optional.of(victim.nodeId));
        Duration failover = Duration.ofNanos(System.nanoTime() - killed);
        assertEquals(survivor.nodeId, taker);
        assertTrue(failover.compareTo(FAILOVER_BOUND) < 0, "picked up after " + failover);
        System.out.printf(
                "scale-out: job of the killed worker running on the other after %.1f s%n",
                failover.toMillis() / 1000.0);

        JsonNode status = ScoringFlowTest.awaitExecution(a, "/sync/status", Map.of("job_id", jobId));
        assertEquals("finished", status.get("status").asText(), status::toString);
        assertPlayableVideo(fetchThrough(apiB, status.get("url").asText()));
        // One set of outputs, the same names as an undisturbed run of the plan: nothing doubled, nothing half-made.
        assertEquals(outputNames(firstExecution.get("execution_id").asText()), outputNames(executionId));
        assertEquals(
                Uploads.sha256(
                        fetchThrough(apiB, firstExecution.at("/links/audio_wav").asText())),
                Uploads.sha256(fetchThrough(apiB, status.at("/links/audio_wav").asText())),
                "the re-run made the same audio as an undisturbed run");

        // The killed worker comes back under the same node id (ready by the last test; it starts beside the next one).
        if (victim == worker1) {
            worker1 = fleet.launch("worker", "worker-1", victim.port);
        } else {
            worker2 = fleet.launch("worker", "worker-2", victim.port);
        }
    }

    @Test
    @Order(3)
    void theStoreDownForTenSecondsMidExecutionEndsCleanly() throws Exception {
        Api a = apiA.api();
        Api.Response executed = a.postJson("/sync/execute", Map.of("plan_id", planId));
        assertEquals(200, executed.status(), executed::toString);
        String jobId = executed.body().get("job_id").asText();
        String executionId = executed.body().get("execution_id").asText();
        awaitHolder(jobId, Optional.empty());
        store.stop();
        try {
            // Readiness is checked at most every 3 s (one check in flight), so it may take a few seconds to turn.
            HttpResponse<byte[]> polled = apiB.get("/readyz");
            for (long until = System.nanoTime() + 8_000_000_000L;
                    polled.statusCode() == 200 && System.nanoTime() < until; ) {
                polled = apiB.get("/readyz");
            }
            HttpResponse<byte[]> notReady = polled;
            assertEquals(503, notReady.statusCode(), () -> new String(notReady.body()));
            assertEquals(
                    "not_ready", Api.JSON.readTree(notReady.body()).get("error").asText());
            Thread.sleep(10_000);
        } finally {
            store.start();
        }
        JsonNode status = ScoringFlowTest.awaitExecution(a, "/sync/status", Map.of("job_id", jobId));
        System.out.println("scale-out: after a 10 s store outage the execution ended "
                + status.get("status").asText() + ": " + status.get("message").asText());
        if (status.get("status").asText().equals("finished")) {
            assertPlayableVideo(fetchThrough(apiB, status.get("url").asText()));
            assertEquals(outputNames(firstExecution.get("execution_id").asText()), outputNames(executionId));
            for (var link : status.get("links").properties()) {
                if (!link.getKey().equals("stems")) {
                    assertTrue(fetchThrough(apiB, link.getValue().asText()).length > 0, link.getKey());
                }
            }
        } else {
            assertEquals("error", status.get("status").asText(), status::toString);
            assertTrue(status.get("message").asText().contains("object store"), status::toString);
            // A correctly signed link to an output of the failed run finds nothing: a run that did not finish lists no
            // outputs.
            byte[] secret;
            try (Database database = Database.open(dbUrl)) {
                secret = new SharedSecrets(database, Clock.systemUTC())
                        .get(DownloadLinks.SECRET_NAME, Optional.empty(), Optional.empty());
            }
            String link = new DownloadLinks(() -> "http://127.0.0.1:" + apiB.port, secret, Clock.systemUTC())
                    .link(executionId, "video.mp4");
            assertEquals(
                    404,
                    HTTP.send(HttpRequest.newBuilder(URI.create(link)).build(), HttpResponse.BodyHandlers.discarding())
                            .statusCode(),
                    "no output of a failed run is served");
        }
    }

    @Test
    @Order(4)
    void withOneApiNodeKilledTheOtherKeepsServing() throws Exception {
        String firstJob = firstExecution.get("job_id").asText();
        apiA.kill();
        Api b = apiB.api();
        Api.Response uploaded = Uploads.uploadA(b, Videos.h264Aac(), "video/mp4", 2);
        assertEquals(200, uploaded.status(), uploaded::toString);
        assertEquals(
                200,
                b.get("/sync/upload_status?upload_id="
                                + uploaded.body().get("upload_id").asText())
                        .status());
        Api.Response status = b.postJson("/sync/status", Map.of("job_id", firstJob));
        assertEquals(200, status.status(), status::toString);
        assertEquals("finished", status.body().get("status").asText());
        assertPlayableVideo(fetchThrough(apiB, status.body().get("url").asText()));
        worker1.awaitReady();
        worker2.awaitReady();
    }

    /** Waits until a worker holds {@code jobId}'s execution, other than {@code not}; returns its node id. */
    private static String awaitHolder(String jobId, Optional<String> not) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        try (var connection = DriverManager.getConnection(dbUrl)) {
            while (System.nanoTime() < deadline) {
                try (var statement = connection.prepareStatement(
                        "SELECT t.picked_by, j.status FROM scheduled_tasks t JOIN jobs j ON j.id = t.task_instance WHERE t.task_instance = ? AND t.picked")) {
                    statement.setString(1, jobId);
                    try (var row = statement.executeQuery()) {
                        if (row.next()
                                && row.getString(2).equals("processing")
                                && !not.equals(Optional.of(row.getString(1)))) {
                            return row.getString(1);
                        }
                    }
                }
                Thread.sleep(50);
            }
        }
        throw new AssertionError("no worker took job " + jobId + " within 90 s");
    }

    /** The objects of an execution's published run (its one out-<run>/ in the store: other runs' are removed). */
    private static Set<String> outputNames(String executionId) throws IOException {
        Path root = store.objectFile(BUCKET, "fleet/executions/" + executionId);
        List<Path> runs;
        try (Stream<Path> dirs = Files.list(root)) {
            runs = dirs.filter(d -> d.getFileName().toString().startsWith("out"))
                    .toList();
        }
        assertEquals(1, runs.size(), "one set of outputs: " + runs);
        Path out = runs.getFirst();
        var names = new TreeSet<String>();
        try (Stream<Path> files = Files.list(out)) {
            files.forEach(f -> names.add(f.getFileName().toString()));
        }
        return names;
    }

    private static long jobRuns(Node node) throws Exception {
        long runs = 0;
        for (String line : new String(node.get("/metrics").body()).split("\n")) {
            if (line.startsWith("scorecast_job_seconds_count")) {
                runs += Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return runs;
    }

    /** {@code link} (made by any node) sent to {@code node} instead. */
    private static String onNode(Node node, String link) {
        URI uri = URI.create(link);
        return "http://127.0.0.1:" + node.port + uri.getRawPath() + "?" + uri.getRawQuery();
    }

    private static byte[] fetchThrough(Node node, String link) throws Exception {
        return ScoringFlowTest.fetch(onNode(node, link));
    }

    private static void assertPlayableVideo(byte[] mp4) throws Exception {
        Path file = Files.write(dir.resolve("download-" + UUID.randomUUID() + ".mp4"), mp4);
        String duration = ScoringFlowTest.ffmpeg("-i", file.toString(), "-map", "0:a", "-f", "null", "-");
        assertFalse(duration.contains("Invalid"), duration);
        String probed = ScoringFlowTest.probe(file, "a:0", "codec_name");
        assertEquals("aac", probed.strip());
    }
}
