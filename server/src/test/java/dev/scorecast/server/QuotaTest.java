package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each user's share is refused before anything is written: 429 for counts, 507 for bytes and a full disk. */
class QuotaTest {
    @TempDir
    Path data;

    @Test
    void uploadsAndBytesPastTheQuotaAreRefusedBeforeAnythingIsStored() throws Exception {
        byte[] video = Uploads.read(Videos.silentMp4());
        var quotas =
                Map.of("SCORECAST_QUOTA_UPLOADS", "2", "SCORECAST_QUOTA_BYTES", String.valueOf(video.length + 1000));
        try (TestServer server = TestServer.start(data, quotas)) {
            Api alice = server.alice();
            UploadErrorsTest.assertError(
                    alice.postJson(
                            "/sync/initialize_video_upload",
                            Map.of("file_name", "big.mp4", "file_size", video.length + 1001, "file_type", "video/mp4")),
                    507,
                    "insufficient_storage",
                    "file_size");

            String first = Uploads.initA(alice, "a.mp4", video.length, "video/mp4");
            assertEquals(200, Uploads.chunkA(alice, first, 0, video).status());
            // A declared size is checked at once; variant B declares none, so its chunks are checked as they come.
            UploadErrorsTest.assertError(
                    alice.postJson(
                            "/sync/initialize_video_upload",
                            Map.of("file_name", "b.mp4", "file_size", video.length, "file_type", "video/mp4")),
                    507,
                    "insufficient_storage",
                    "file_size");
            String second = Uploads.initB(alice, "b.mp4");
            Api.Response third = alice.postJson(
                    "/sync/initialize_video_upload",
                    Map.of("file_name", "c.mp4", "file_size", 10, "file_type", "video/mp4"));
            UploadErrorsTest.assertError(third, 429, "busy", null);
            assertTrue(third.header("Retry-After") != null, third::toString);

            // The first upload's chunk holds the quota: the second's is refused and not kept.
            UploadErrorsTest.assertError(Uploads.chunkB(alice, second, 0, 1, video), 507, "insufficient_storage", null);
            try (var files = Files.walk(data.resolve("files/uploads"))) {
                assertEquals(1, files.filter(Files::isRegularFile).count(), "only the first upload's chunk is stored");
            }
            // Another user's share is their own.
            Api bob = server.bob();
            assertEquals(
                    200,
                    Uploads.chunkA(bob, Uploads.initA(bob, "d.mp4", video.length, "video/mp4"), 0, video)
                            .status());
        }
    }

    @Test
    void aNearlyFullDiskRefusesNewWork() {
        try (TestServer server = TestServer.start(data, Map.of("SCORECAST_MIN_FREE_BYTES", "1048576GiB"))) {
            UploadErrorsTest.assertError(
                    server.alice()
                            .postJson(
                                    "/sync/initialize_video_upload",
                                    Map.of("file_name", "a.mp4", "file_size", 100, "file_type", "video/mp4")),
                    507,
                    "insufficient_storage",
                    null);
        }
    }

    @Test
    void analysesPastTheQueueQuotaAreRefused() throws Exception {
        var held = new HeldAnalysis();
        try (TestServer server = TestServer.start(data, Map.of("SCORECAST_QUOTA_ANALYSES", "1"), held)) {
            Api alice = server.alice();
            String one = Uploads.uploadA(alice, Videos.silentMp4(), "video/mp4", 1)
                    .body()
                    .get("video_id")
                    .asText();
            String two = Uploads.uploadA(alice, Videos.h264Aac(), "video/mp4", 1)
                    .body()
                    .get("video_id")
                    .asText();
            assertEquals(
                    200,
                    alice.postJson("/sync/video_analysis", Map.of("video_id", one))
                            .status());
            Api.Response refused = alice.postJson("/sync/video_analysis", Map.of("video_id", two));
            UploadErrorsTest.assertError(refused, 429, "busy", null);
            held.release();
        }
    }
}
