package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28, storage that no quota saw: every byte kept for a user counts in their share (plans, the
 * analyses clients send with them, the server's analyses, execution outputs), a video keeps only its
 * newest plans, and a nearly full disk refuses a plan before anything is written.
 */
class StorageQuotaTest {
    @TempDir
    Path data;

    /** A completed variant B upload of the silent test video and its analysis as the server answers it. */
    private record Analysed(String taskId, String analysis) {}

    private static Analysed analysed(Api api) {
        String taskId =
                Uploads.uploadB(api, Videos.silentMp4(), 1).body().get("taskid").asText();
        Api.Response analysed = api.postJson("/sync_video_analysis", Map.of("taskid", taskId));
        assertEquals(200, analysed.status(), analysed::toString);
        return new Analysed(taskId, analysed.body().get("analysis").toString());
    }

    private static Api.Response generate(Api api, String taskId, byte[] analysis) {
        return api.postMultipart(
                "/sync_generate", Map.of("payload", Api.write(Map.of("taskid", taskId))), "analysis", analysis);
    }

    /** Bytes of every file under {@code files/<dir>}. */
    private long bytesUnder(String dir) throws IOException {
        Path root = data.resolve("files").resolve(dir);
        if (!Files.exists(root)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile)
                    .mapToLong(f -> f.toFile().length())
                    .sum();
        }
    }

    private long filesUnder(String dir) throws IOException {
        Path root = data.resolve("files").resolve(dir);
        if (!Files.exists(root)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).count();
        }
    }

    /**
     * 150 variant B generates of one video with a 3.5 MiB analysis were all accepted and added 528 MB
     * to a share that counted videos only. With a share of the video and 4 MiB, analyses of 1 MiB
     * fit three times; the fourth is refused 507 naming {@code analysis} and nothing of it is kept.
     */
    @Test
    void analysesSentWithPlansCountInTheShare() throws Exception {
        long video = Files.size(Videos.silentMp4());
        long quota = video + (4L << 20);
        try (TestServer server = TestServer.start(data, Map.of("SCORECAST_QUOTA_BYTES", String.valueOf(quota)))) {
            Api alice = server.alice();
            Analysed a = analysed(alice);
            byte[] padded = (a.analysis() + " ".repeat(1 << 20)).getBytes(StandardCharsets.UTF_8);
            int accepted = 0;
            Api.Response refused = null;
            for (int i = 0; i < 8 && refused == null; i++) {
                Api.Response r = generate(alice, a.taskId(), padded);
                if (r.status() == 200) {
                    accepted++;
                } else {
                    refused = r;
                }
            }
            System.out.printf(
                    "storage: %d generates of a %d-byte analysis accepted under a share of the video + 4 MiB%n",
                    accepted, padded.length);
            assertEquals(3, accepted);
            UploadErrorsTest.assertError(refused, 507, "insufficient_storage", "analysis");
            assertEquals(3, filesUnder("plans/analyses"), "the refused analysis was not written");
            long stored = bytesUnder("videos") + bytesUnder("plans") + bytesUnder("analyses");
            assertTrue(stored <= quota, stored + " bytes stored under a share of " + quota);
            long counted = server.count("SELECT COALESCE(SUM(size), 0) FROM videos WHERE owner = 'alice'")
                    + server.count("SELECT COALESCE(SUM(bytes), 0) FROM stored_bytes WHERE owner = 'alice'");
            assertEquals(stored, counted, "every stored byte is counted");
            // Another user's share is their own.
            Api bob = server.bob();
            assertEquals(200, generate(bob, analysed(bob).taskId(), padded).status());
        }
    }

    /** A video keeps its newest plans: past the cap, generating removes the oldest plan and the analysis sent with it. */
    // Tagged slow (bin/test --all): whole executions and plans filling a share, 10 to 13 s each; the other share tests
    // stay fast.
    @Test
    @Tag("slow")
    void aVideoKeepsItsNewestPlans() throws Exception {
        try (TestServer server = TestServer.start(data, Map.of("SCORECAST_QUOTA_PLANS_PER_VIDEO", "2"))) {
            Api alice = server.alice();
            Analysed a = analysed(alice);
            String first = null;
            for (int i = 0; i < 5; i++) {
                Api.Response r = generate(alice, a.taskId(), a.analysis().getBytes(StandardCharsets.UTF_8));
                assertEquals(200, r.status(), r::toString);
                if (first == null) {
                    first = r.body().at("/plan/id").asText();
                }
            }
            assertEquals(2, server.count("SELECT COUNT(*) FROM plans WHERE owner = 'alice'"));
            assertEquals(2, filesUnder("plans/analyses"));
            assertEquals(4, filesUnder("plans"), "two plans and the two analyses sent with them");
            assertFalse(Files.exists(data.resolve("files/plans/" + first + ".json")), "the oldest plan went");
            assertEquals(
                    bytesUnder("plans") + bytesUnder("analyses"),
                    server.count("SELECT COALESCE(SUM(bytes), 0) FROM stored_bytes WHERE owner = 'alice'"),
                    "what went is no longer counted");
        }
    }

    /** Below the free disk the server keeps, a plan is refused 507 before anything is written. */
    @Test
    void aNearlyFullDiskRefusesAPlanBeforeWritingIt() throws Exception {
        try (TestServer server = TestServer.start(data)) {
            Analysed a = analysed(server.alice());
            server.env.put("SCORECAST_MIN_FREE_BYTES", "1048576GiB");
            server.restart();
            UploadErrorsTest.assertError(
                    generate(server.alice(), a.taskId(), a.analysis().getBytes(StandardCharsets.UTF_8)),
                    507,
                    "insufficient_storage",
                    null);
            assertEquals(0, filesUnder("plans"));
            assertEquals(0, server.count("SELECT COUNT(*) FROM plans"));
        }
    }

    /**
     * An execution's plan, outputs and failure report count in the share. With room for its outputs it
     * finishes and every file it keeps is counted; with a share too small for them it ends
     * {@code insufficient_storage} and keeps no output.
     */
    // Tagged slow (bin/test --all): whole executions and plans filling a share, 10 to 13 s each; the other share tests
    // stay fast.
    @Test
    @Tag("slow")
    void executionOutputsCountInTheShare() throws Exception {
        try (TestServer server = TestServer.start(data)) {
            Api alice = server.alice();
            Analysed a = analysed(alice);
            JsonNode plan = generate(alice, a.taskId(), a.analysis().getBytes(StandardCharsets.UTF_8))
                    .body()
                    .get("plan");
            String first = execute(alice, a.taskId(), plan);
            JsonNode done = ScoringFlowTest.awaitExecution(alice, "/sync_status", Map.of("execid", first));
            assertEquals("finished", done.get("status").asText(), done::toString);
            long outputs = bytesUnder("executions/" + first);
            assertTrue(outputs > 10_000, "the outputs: " + outputs);
            assertEquals(
                    outputs,
                    server.count("SELECT COALESCE(SUM(bytes), 0) FROM stored_bytes WHERE execution_id = ?", first),
                    "the execution's plan and outputs are counted");
            long stored = server.count("SELECT COALESCE(SUM(size), 0) FROM videos WHERE owner = 'alice'")
                    + server.count("SELECT COALESCE(SUM(bytes), 0) FROM stored_bytes WHERE owner = 'alice'");

            // Room for the plan of one more execution, not for its outputs.
            server.env.put("SCORECAST_QUOTA_BYTES", String.valueOf(stored + outputs / 2));
            server.restart();
            alice = server.alice();
            String second = execute(alice, a.taskId(), plan);
            JsonNode failed = ScoringFlowTest.awaitExecution(alice, "/sync_status", Map.of("execid", second));
            assertEquals("error", failed.get("status").asText(), failed::toString);
            assertEquals("insufficient_storage", failed.get("error").asText(), failed::toString);
            try (Stream<Path> kept = Files.list(data.resolve("files/executions/" + second))) {
                assertEquals(
                        List.of(),
                        kept.map(p -> p.getFileName().toString())
                                .filter(n -> n.startsWith("out"))
                                .toList(),
                        "no output of the refused run is kept");
            }
            System.out.printf(
                    "storage: an execution's %d bytes counted; one past the share ended %s%n",
                    outputs, failed.get("error"));
        }
    }

    private static String execute(Api api, String taskId, JsonNode plan) {
        Api.Response executed = api.postMultipart(
                "/sync_execute",
                Map.of("plan", plan.toString(), "payload", Api.write(Map.of("taskid", taskId))),
                null,
                null);
        assertEquals(200, executed.status(), executed::toString);
        return executed.body().get("execid").asText();
    }
}
