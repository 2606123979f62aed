package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A chunk damaged at rest between its arrival and complete is caught by its CRC32C, and sending it again mends the upload. */
class ChunkDamageTest {
    @TempDir
    Path data;

    @Test
    void aChunkDamagedOnDiskFailsAssemblyByNameAndCanBeSentAgain() throws Exception {
        try (TestServer server = TestServer.start(data)) {
            Api api = server.alice();
            byte[] video = Uploads.read(Videos.h264Aac());
            List<byte[]> chunks = Uploads.split(video, 3);
            String upload = Uploads.initA(api, "a.mp4", video.length, "video/mp4");
            for (int i = 0; i < chunks.size(); i++) {
                assertEquals(200, Uploads.chunkA(api, upload, i, chunks.get(i)).status());
            }
            Path stored;
            try (var files = Files.list(data.resolve("files/uploads").resolve(upload))) {
                stored = files.filter(f -> f.getFileName().toString().startsWith("1-"))
                        .findFirst()
                        .orElseThrow();
            }
            byte[] damaged = Files.readAllBytes(stored);
            damaged[damaged.length / 2] ^= 0x10;
            Files.write(stored, damaged);

            Api.Response refused = api.postJson("/sync/complete_video_upload", Map.of("upload_id", upload));
            UploadErrorsTest.assertError(refused, 409, "wrong_state", "chunks");
            assertTrue(refused.body().get("message").asText().contains("Chunk 1"), refused::toString);
            assertEquals(1, refused.body().get("missing_indices").get(0).asInt(), refused::toString);

            assertEquals(200, Uploads.chunkA(api, upload, 1, chunks.get(1)).status());
            assertEquals(
                    200,
                    api.postJson("/sync/complete_video_upload", Map.of("upload_id", upload))
                            .status());
        }
    }
}
