package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import dev.scorecast.server.retention.OrphanSweeper;
import dev.scorecast.server.storage.Checksums;
import dev.scorecast.server.storage.LocalBlobStore;
import dev.scorecast.server.webhooks.Receiver;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kill -9 campaign: the real server process is killed with SIGKILL at random points (mid-chunk,
 * mid-assembly, mid-analysis, in each execution stage) and started again on the same data
 * directory, again and again. Afterwards: no upload is left assembling, every job has ended within
 * its deadline, every finished execution's outputs download, every row's files exist, and no file
 * is left that no row refers to. Webhooks too: every ended job's terminal event and every completed
 * upload's event reaches a receiver that was listening throughout, however often the server died
 * around it (at least once; duplicates are allowed). {@code -Dscorecast.crash.kills=200} is the benchmark run.
 *
 * <p>Tagged slow (bin/test --all, CI): twenty kills of the packaged server, 112 s; failsafe leaves the
 * slow tag out in the fast tier as surefire does.
 */
@Tag("slow")
class CrashRecoveryIT {
    @TempDir
    Path data;

    @Test
    void killedAtRandomPointsItComesBackWhole() throws Exception {
        int kills = Integer.getInteger("scorecast.crash.kills", 20);
        Random random = new Random(Long.getLong("scorecast.crash.seed", 20261123L));
        // Webhooks to a receiver in this process (local delivery allowed), looked for often.
        Map<String, String> settings =
                Map.of("SCORECAST_WEBHOOKS_ALLOW_LOCAL", "true", "SCORECAST_WEBHOOKS_POLL_MS", "100");
        var receiver = Receiver.start().answer(200);
        ChildServer server = ChildServer.start(data, settings);
        String key = server.firstKey;
        List<String> uploads = new ArrayList<>();
        List<String> jobs = new ArrayList<>();
        String analysed = null;
        try {
            // One analysed video to execute plans on in later rounds.
            Api api = server.api(key);
            assertEquals(
                    201,
                    api.postJson("/webhooks", Map.of("url", receiver.url("/crash")))
                            .status());
            Api.Response done = Uploads.uploadA(api, Videos.withCuts(), "video/mp4", 2);
            uploads.add(done.body().get("upload_id").asText());
            JsonNode started = api.postJson(
                            "/sync/video_analysis",
                            Map.of("video_id", done.body().get("video_id").asText()))
                    .body();
            jobs.add(started.get("job_id").asText());
            assertEquals(
                    "finished",
                    AnalysisFlowTest.awaitJob(api, started.get("job_id").asText())
                            .get("status")
                            .asText());
            analysed = started.get("analysis_id").asText();

            for (int round = 0; round < kills; round++) {
                Api client = server.api(key);
                int point = random.nextInt(4);
                long delay = random.nextInt(point == 3 ? 4000 : 400);
                CompletableFuture<?> work = switch (point) {
                    case 0 ->
                        CompletableFuture.runAsync(
                                () -> { // a chunk in flight
                                    byte[] video = Uploads.read(Videos.largerMp4());
                                    String id = Uploads.initA(client, "a.mp4", video.length, "video/mp4");
                                    uploads.add(id);
                                    Uploads.chunkA(client, id, 0, video);
                                });
                    case 1 ->
                        CompletableFuture.runAsync(
                                () -> { // assembly, probe and audio extraction
                                    byte[] video = Uploads.read(Videos.largerMp4());
                                    String id = Uploads.initA(client, "b.mp4", video.length, "video/mp4");
                                    uploads.add(id);
                                    for (int i = 0; i < 3; i++) {
                                        Uploads.chunkA(
                                                client,
                                                id,
                                                i,
                                                Uploads.split(video, 3).get(i));
                                    }
                                    client.postJson("/sync/complete_video_upload", Map.of("upload_id", id));
                                });
                    case 2 ->
                        CompletableFuture.runAsync(
                                () -> { // an analysis
                                    Api.Response up = Uploads.uploadA(client, Videos.h264Aac(), "video/mp4", 1);
                                    uploads.add(up.body().get("upload_id").asText());
                                    JsonNode a = client.postJson(
                                                    "/sync/video_analysis",
                                                    Map.of(
                                                            "video_id",
                                                            up.body()
                                                                    .get("video_id")
                                                                    .asText()))
                                            .body();
                                    jobs.add(a.get("job_id").asText());
                                });
                    default -> {
                        String analysisId = analysed;
                        yield CompletableFuture.runAsync(
                                () -> { // an execution, killed in any of its stages
                                    JsonNode plan = client.postJson(
                                                    "/sync/generate", Map.of("analysis_id", analysisId, "seed", 3))
                                            .body();
                                    JsonNode exec = client.postJson(
                                                    "/sync/execute",
                                                    Map.of(
                                                            "plan_id",
                                                            plan.get("plan_id").asText()))
                                            .body();
                                    jobs.add(exec.get("job_id").asText());
                                });
                    }
                };
                Thread.sleep(delay);
                server.kill();
                try {
                    work.join();
                } catch (Exception interrupted) {
                    // the connection died with the server: expected
                }
                server = ChildServer.start(data, settings);
                System.out.printf("crash: kill %d of %d at point %d after %d ms%n", round + 1, kills, point, delay);
            }

            Api api2 = server.api(key);
            Map<String, Integer> outcomes = new TreeMap<>();
            for (String job : jobs) {
                JsonNode status = ScoringFlowTest.awaitExecution(api2, "/sync/status", Map.of("job_id", job));
                outcomes.merge(
                        status.get("kind").asText() + " " + status.get("status").asText(), 1, Integer::sum);
                assertTrue(
                        List.of("finished", "error")
                                .contains(status.get("status").asText()),
                        "job " + job + " ended: " + status);
                if (status.get("kind").asText().equals("execution")
                        && status.get("status").asText().equals("finished")) {
                    for (var link : (Iterable<Map.Entry<String, JsonNode>>) status.get("links")::fields) {
                        var response = CheckedHttpClient.newClient()
                                .send(
                                        HttpRequest.newBuilder(URI.create(
                                                        link.getValue().asText()))
                                                .build(),
                                        HttpResponse.BodyHandlers.ofByteArray());
                        assertEquals(200, response.statusCode(), link.getKey() + " of " + job);
                        assertTrue(response.body().length > 0, link.getKey() + " of " + job);
                    }
                }
            }
            System.out.println("crash: jobs ended " + outcomes + ", uploads " + uploads.size());
            // Every ended job and every completed upload was told, whatever the kills interrupted.
            Set<String> expected = new HashSet<>();
            for (String job : jobs) {
                JsonNode status =
                        api2.postJson("/sync/status", Map.of("job_id", job)).body();
                expected.add(status.get("kind").asText()
                        + (status.get("status").asText().equals("finished") ? ".finished" : ".failed") + " " + job);
            }
            for (String upload : uploads) {
                JsonNode status =
                        api2.get("/sync/upload_status?upload_id=" + upload).body();
                if ("complete".equals(status.path("state").asText())) {
                    expected.add("upload.completed " + upload);
                }
            }
            Set<String> told = new HashSet<>();
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (!told.containsAll(expected) && System.nanoTime() < deadline) {
                told.clear();
                for (var got : receiver.all()) {
                    JsonNode event = Api.JSON.readTree(got.body());
                    told.add(event.get("type").asText() + " "
                            + event.at("/data/"
                                            + (event.get("type").asText().startsWith("upload")
                                                    ? "upload_id"
                                                    : "job_id"))
                                    .asText());
                }
                Thread.sleep(100);
            }
            Set<String> missing = new HashSet<>(expected);
            missing.removeAll(told);
            assertEquals(Set.of(), missing, "events never delivered");
            long duplicates = receiver.all().size()
                    - receiver.all().stream()
                            .map(r -> r.header("Scorecast-Event-Id"))
                            .distinct()
                            .count();
            System.out.println("crash: webhooks: " + expected.size() + " events expected, all delivered, " + duplicates
                    + " sent again after a kill (at least once)");
            for (String upload : uploads) {
                JsonNode status =
                        api2.get("/sync/upload_status?upload_id=" + upload).body();
                assertTrue(
                        !"assembling".equals(status.path("state").asText()),
                        "upload " + upload + " left assembling: " + status);
            }
        } finally {
            server.close();
            receiver.close();
        }
        checkFilesAgainstRows();
    }

    /** Every file a row names exists; every stored file is named by a row (temporary work aside). */
    private void checkFilesAgainstRows() throws Exception {
        Path files = data.resolve("files");
        Set<String> named = new HashSet<>();
        try (Database db = Database.open("jdbc:sqlite:" + data.resolve("scorecast.db"))) {
            // A kill between writing a file and committing its row (a plan, an execution's outputs)
            // leaves a file no row names, by design: files are written before the rows that name
            // them, never after, and the orphan sweep removes such leftovers once they are a day
            // old. Run that sweep as a day later would (every server is stopped by now), then hold
            // that nothing a row names went and nothing unnamed stayed.
            Duration grace = Duration.ofHours(24);
            int swept = new OrphanSweeper(
                            db,
                            new LocalBlobStore(files),
                            data,
                            Clock.offset(Clock.systemUTC(), grace.plusHours(1)),
                            grace)
                    .sweep();
            System.out.println("crash: the orphan sweep removed " + swept + " leftovers of killed writes");
            db.query(c -> {
                // A complete upload's chunks are deleted once its video is assembled; their rows stay as its record.
                named.addAll(Rows.list(
                        c,
                        "SELECT k.stored_as FROM upload_chunks k JOIN uploads u ON u.id = k.upload_id "
                                + "WHERE u.state <> 'complete'",
                        row -> row.getString("stored_as")));
                named.addAll(Rows.list(c, "SELECT stored_as FROM videos", row -> row.getString("stored_as")));
                named.addAll(Rows.list(
                        c,
                        "SELECT audio_stored_as FROM videos WHERE audio_stored_as IS NOT NULL",
                        row -> row.getString("audio_stored_as")));
                return null;
            });
            for (String key : named) {
                assertTrue(Files.exists(files.resolve(key)), "a row names " + key + " but the file is missing");
            }
            // Each stored video and each chunk still waiting for its upload's completion is whole:
            // its size and CRC32C are the ones recorded when it was written.
            List<String[]> recorded = db.query(c -> {
                List<String[]> rows = new ArrayList<>(Rows.list(c, "SELECT stored_as, size, crc32c FROM videos", row ->
                        new String[] {row.getString(1), Long.toString(row.getLong(2)), row.getString(3)}));
                rows.addAll(Rows.list(
                        c,
                        "SELECT k.stored_as, k.size, k.crc32c FROM upload_chunks k JOIN uploads u ON u.id = k.upload_id "
                                + "WHERE u.state <> 'complete'",
                        row -> new String[] {row.getString(1), Long.toString(row.getLong(2)), row.getString(3)}));
                return rows;
            });
            for (String[] row : recorded) {
                byte[] bytes = Files.readAllBytes(files.resolve(row[0]));
                CRC32C crc = new CRC32C();
                crc.update(bytes);
                assertEquals(Long.parseLong(row[1]), bytes.length, "size of " + row[0]);
                assertEquals(row[2], Checksums.hex(crc), "CRC32C of " + row[0]);
            }
            List<String> executions =
                    db.query(c -> Rows.list(c, "SELECT id FROM executions", row -> row.getString("id")));
            List<String> analyses = db.query(c -> Rows.list(c, "SELECT id FROM analyses", row -> row.getString("id")));
            List<String> plans =
                    db.query(c -> Rows.list(c, "SELECT plan_key FROM plans", row -> row.getString("plan_key")));
            List<String> orphans = new ArrayList<>();
            try (Stream<Path> all = Files.walk(files)) {
                for (Path file : all.filter(Files::isRegularFile).toList()) {
                    String rel = files.relativize(file).toString();
                    boolean owned = named.contains(rel)
                            || plans.contains(rel)
                            || rel.startsWith("executions/") && executions.contains(rel.split("/")[1])
                            || rel.startsWith("analyses/") && analyses.contains(rel.split("/")[1])
                            || rel.startsWith("plans/analyses/");
                    if (!owned) {
                        orphans.add(rel);
                    }
                }
            }
            assertEquals(List.of(), orphans, "files no row refers to");
        }
    }
}
