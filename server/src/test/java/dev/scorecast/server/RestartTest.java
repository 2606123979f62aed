package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A server restart between two chunks loses nothing: the client carries on. */
class RestartTest {
    @TempDir
    Path data;

    @Test
    void uploadsSurviveARestart() {
        try (TestServer server = TestServer.start(data)) {
            byte[] bytes = Uploads.read(Videos.h264Aac());
            List<byte[]> chunks = Uploads.split(bytes, 3);
            String id = Uploads.initA(server.alice(), "v.mp4", bytes.length, "video/mp4");
            String task = Uploads.initB(server.alice(), "v.mp4");
            assertEquals(
                    200, Uploads.chunkA(server.alice(), id, 0, chunks.get(0)).status());
            assertEquals(
                    200,
                    Uploads.chunkB(server.alice(), task, 0, 3, chunks.get(0)).status());

            server.restart();

            Api api = server.alice();
            Api.Response status = api.get("/sync/upload_status?upload_id=" + id);
            assertEquals(200, status.status(), status::toString);
            assertEquals(
                    chunks.get(0).length, status.body().get("received_bytes").asLong());
            for (int i = 1; i < 3; i++) {
                assertEquals(200, Uploads.chunkA(api, id, i, chunks.get(i)).status());
                assertEquals(200, Uploads.chunkB(api, task, i, 3, chunks.get(i)).status());
            }
            Api.Response a = api.postJson("/sync/complete_video_upload", Map.of("upload_id", id));
            assertEquals(200, a.status(), a::toString);
            assertEquals(Uploads.crc32c(bytes), a.body().get("crc32c").asText());
            Api.Response b = api.postJson("/sync_upload_complete", Map.of("taskid", task, "total", 3));
            assertEquals(200, b.status(), b::toString);
            assertEquals(Uploads.crc32c(bytes), b.body().at("/video/crc32c").asText());
        }
    }
}
