package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.scorecast.server.Fleet.Node;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs per hour of the two layouts (docs/SCALING.md), on a fleet of its own: it once ran last in
 * ScaleOutTest, on that campaign's nodes killed for it, so it depended on the order of the methods.
 * Runs only when asked ({@code -Dscorecast.throughput.jobs=N}) and is tagged slow besides.
 */
@Tag("slow")
@EnabledIfSystemProperty(named = "scorecast.throughput.jobs", matches = "[0-9]+")
class ScaleOutThroughputTest {
    /** Kept when a test fails: the nodes' logs are in it. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    static Fleet fleet;

    @BeforeAll
    static void openFleet() throws Exception {
        fleet = Fleet.open(dir, "throughput");
    }

    @AfterAll
    static void closeFleet() throws Exception {
        if (fleet != null) {
            fleet.close();
        }
    }

    /**
     * Not a check, a benchmark (docs/SCALING.md): {@code -Dscorecast.throughput.jobs=N} scores N
     * 30 s 1080p videos at once through 1 api + 2 worker nodes, then through one {@code all} node
     * with as many job slots (2), on this machine, and prints jobs per hour and each layout's CPU.
     * {@code mvn -pl server -am test -Dtest=ScaleOutThroughputTest -Dscorecast.throughput.jobs=6}.
     * Every job must finish in both layouts; the figures are printed, not judged (a shared machine's
     * throughput is no pass or fail).
     */
    @Test
    void throughputOfOneApiAndTwoWorkersAgainstOneAllNode() throws Exception {
        int jobs = Integer.getInteger("scorecast.throughput.jobs");
        Path clip = Videos.make(
                "throughput.mp4",
                "-f lavfi -i testsrc2=size=1920x1080:rate=30 -f lavfi"
                        + " -i anoisesrc=color=pink:amplitude=0.1:sample_rate=48000 -t 30 -c:v libx264 -preset veryfast -pix_fmt yuv420p -c:a aac");
        // One user queues all the jobs: lift the per-user analysis quota (4) for the benchmark.
        Map<String, String> quota = Map.of("SCORECAST_QUOTA_ANALYSES", "64");
        Node api = fleet.launch("api", "tp-api", Fleet.freePort(), quota);
        Node w1 = fleet.launch("worker", "tp-worker-1", Fleet.freePort(), quota);
        Node w2 = fleet.launch("worker", "tp-worker-2", Fleet.freePort(), quota);
        for (Node node : List.of(api, w1, w2)) {
            node.awaitReady();
        }
        scoreAtOnce(api, clip, 1); // warm-up: JIT and instruments on both workers' first job
        double[] split = timed(List.of(api, w1, w2), () -> scoreAtOnce(api, clip, jobs));
        for (Node node : List.of(api, w1, w2)) {
            node.kill();
        }
        Node all = fleet.launch(
                "all", "tp-all", Fleet.freePort(), Map.of("SCORECAST_WORKERS", "2", "SCORECAST_QUOTA_ANALYSES", "64"));
        all.awaitReady();
        scoreAtOnce(all, clip, 1);
        double[] one = timed(List.of(all), () -> scoreAtOnce(all, clip, jobs));
        all.kill();
        System.out.printf("throughput, %d jobs of a 30 s 1080p30 clip at once, 2 job slots in each layout:%n", jobs);
        System.out.printf(
                "  1 api + 2 worker nodes: %.1f s, %.0f jobs/hour, %.1f CPU-s (all three processes)%n",
                split[0], 3600 * jobs / split[0], split[1]);
        System.out.printf(
                "  1 all node:             %.1f s, %.0f jobs/hour, %.1f CPU-s%n", one[0], 3600 * jobs / one[0], one[1]);
    }

    private interface Work {
        void run() throws Exception;
    }

    /** Wall seconds and the nodes' CPU seconds that {@code work} took. */
    private static double[] timed(List<Node> nodes, Work work) throws Exception {
        double cpu = nodes.stream().mapToDouble(Node::cpuSeconds).sum();
        long start = System.nanoTime();
        work.run();
        return new double[] {
            (System.nanoTime() - start) / 1e9,
            nodes.stream().mapToDouble(Node::cpuSeconds).sum() - cpu
        };
    }

    /** Uploads, analyses, plans and executes {@code count} copies of {@code clip} at once through {@code node}; each must finish. */
    private static void scoreAtOnce(Node node, Path clip, int count) throws Exception {
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<String>> runs = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                runs.add(pool.submit(() -> {
                    Api a = node.api();
                    Api.Response video = Uploads.uploadA(a, clip, "video/mp4", 2);
                    assertEquals(200, video.status(), video::toString);
                    Api.Response analysing = a.postJson(
                            "/sync/video_analysis",
                            Map.of("video_id", video.body().get("video_id").asText()));
                    assertEquals(
                            "finished",
                            AnalysisFlowTest.awaitJob(
                                            a, analysing.body().get("job_id").asText())
                                    .get("status")
                                    .asText());
                    Api.Response generated = a.postJson(
                            "/sync/generate",
                            Map.of(
                                    "analysis_id",
                                    analysing.body().get("analysis_id").asText(),
                                    "genre",
                                    "house",
                                    "seed",
                                    7));
                    Api.Response executed = a.postJson(
                            "/sync/execute",
                            Map.of("plan_id", generated.body().get("plan_id").asText()));
                    JsonNode done = ScoringFlowTest.awaitExecution(
                            a,
                            "/sync/status",
                            Map.of("job_id", executed.body().get("job_id").asText()));
                    assertEquals("finished", done.get("status").asText(), done::toString);
                    return done.get("status").asText();
                }));
            }
            for (var run : runs) {
                run.get();
            }
        }
    }
}
