package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Both variants' uploads through HTTP, on real videos of several containers and codecs. */
class UploadFlowTest {
    @TempDir
    static Path data;

    static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start(data);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void h264AacMp4ThroughVariantA() throws Exception {
        Path file = Videos.h264Aac();
        Api.Response done = Uploads.uploadA(server.alice(), file, "video/mp4", 3);
        assertEquals(200, done.status(), done::toString);
        assertTrue(done.body().get("video_id").asText().startsWith("vid_"));
        assertEquals(4.0, done.body().get("duration").asDouble(), 0.1);
        assertEquals(320, done.body().get("width").asInt());
        assertEquals(240, done.body().get("height").asInt());
        assertEquals(25.0, done.body().get("fps").asDouble(), 0.01);
        assertTrue(done.body().get("has_audio").asBoolean());
        assertEquals("h264", done.body().get("video_codec").asText());
        assertEquals("mp4", done.body().get("container").asText());
        // The assembled file is the uploaded file, byte for byte.
        assertEquals(
                Uploads.crc32c(Uploads.read(file)), done.body().get("crc32c").asText());
        assertEquals(
                Files.size(file),
                Files.size(server.dataDir.resolve(
                        "files/videos/" + done.body().get("video_id").asText() + "/source")));
        assertEquals(
                -1,
                Files.mismatch(
                        file,
                        server.dataDir.resolve(
                                "files/videos/" + done.body().get("video_id").asText() + "/source")));
        String videoId = done.body().get("video_id").asText();
        assertTrue(
                server.dataDir
                        .resolve("files/videos/" + videoId + "/audio.wav")
                        .toFile()
                        .isFile(),
                "audio extracted");
    }

    @Test
    void vp9OpusWebmThroughVariantB() {
        Api.Response done = Uploads.uploadB(server.alice(), Videos.vp9Opus(), 4);
        assertEquals(200, done.status(), done::toString);
        assertEquals("complete", done.body().get("state").asText());
        assertTrue(done.body().get("taskid").asText().startsWith("task_"));
        assertFalse(done.body().get("message").asText().isBlank());
        assertEquals("vp9", done.body().at("/video/video_codec").asText());
        assertEquals("webm", done.body().at("/video/container").asText());
        assertEquals(3.0, done.body().at("/video/duration").asDouble(), 0.1);
        assertTrue(done.body().at("/video/has_audio").asBoolean());
    }

    @Test
    void movThroughVariantA() {
        Api.Response done = Uploads.uploadA(server.alice(), Videos.mov(), "video/quicktime", 2);
        assertEquals(200, done.status(), done::toString);
        assertEquals("mov", done.body().get("container").asText());
        assertEquals("mpeg4", done.body().get("video_codec").asText());
        assertEquals(24.0, done.body().get("fps").asDouble(), 0.01);
    }

    @Test
    void videoWithoutAudio() {
        Api.Response done = Uploads.uploadB(server.alice(), Videos.silentMp4(), 1);
        assertEquals(200, done.status(), done::toString);
        assertFalse(done.body().at("/video/has_audio").asBoolean());
    }

    @Test
    void eightChunksConcurrentlyInShuffledOrderVariantA() throws Exception {
        Api api = server.alice();
        byte[] bytes = Uploads.read(Videos.largerMp4());
        String id = Uploads.initA(api, "larger.mp4", bytes.length, "video/mp4");
        List<byte[]> chunks = Uploads.split(bytes, 8);
        assertEquals(8, chunks.size());
        List<Api.Response> answers = concurrently(chunks.size(), i -> Uploads.chunkA(api, id, i, chunks.get(i)));
        for (Api.Response r : answers) {
            assertEquals(200, r.status(), r::toString);
        }
        Api.Response status = api.get("/sync/upload_status?upload_id=" + id);
        assertEquals(8, status.body().get("chunks").size());
        assertEquals(bytes.length, status.body().get("received_bytes").asLong());
        Api.Response done = api.postJson("/sync/complete_video_upload", Map.of("upload_id", id));
        assertEquals(200, done.status(), done::toString);
        assertEquals(Uploads.crc32c(bytes), done.body().get("crc32c").asText());
    }

    @Test
    void eightChunksConcurrentlyInShuffledOrderVariantB() throws Exception {
        Api api = server.alice();
        byte[] bytes = Uploads.read(Videos.largerMp4());
        String id = Uploads.initB(api, "larger.mp4");
        List<byte[]> chunks = Uploads.split(bytes, 8);
        List<Api.Response> answers = concurrently(chunks.size(), i -> Uploads.chunkB(api, id, i, 8, chunks.get(i)));
        for (Api.Response r : answers) {
            assertEquals(200, r.status(), r::toString);
            assertEquals("active", r.body().get("state").asText());
            assertTrue(r.body().get("chunkid").asText().startsWith("chk_"));
        }
        Api.Response done = api.postJson("/sync_upload_complete", Map.of("taskid", id, "total", 8));
        assertEquals(200, done.status(), done::toString);
        assertEquals(Uploads.crc32c(bytes), done.body().at("/video/crc32c").asText());
    }

    @Test
    void resentIndexReplacesTheEarlierChunk() {
        Api api = server.alice();
        byte[] bytes = Uploads.read(Videos.h264Aac());
        List<byte[]> chunks = Uploads.split(bytes, 2);
        String id = Uploads.initA(api, "a.mp4", bytes.length, "video/mp4");
        byte[] wrong = chunks.get(0).clone();
        wrong[100] ^= 0x55;
        assertEquals(200, Uploads.chunkA(api, id, 0, wrong).status());
        assertEquals(200, Uploads.chunkA(api, id, 1, chunks.get(1)).status());
        Api.Response again = Uploads.chunkA(api, id, 0, chunks.get(0));
        assertEquals(200, again.status());
        assertEquals(Uploads.crc32c(chunks.get(0)), again.body().get("crc32c").asText());
        assertTrue(again.body().get("sha256").isNull(), "SHA-256 is taken only when the client asks for it");
        Api.Response status = api.get("/sync/upload_status?upload_id=" + id);
        assertEquals(2, status.body().get("chunks").size(), "a duplicate index is one chunk");
        Api.Response done = api.postJson("/sync/complete_video_upload", Map.of("upload_id", id));
        assertEquals(Uploads.crc32c(bytes), done.body().get("crc32c").asText());
    }

    @Test
    void completeIsIdempotentAndLaterChunksAreRefused() {
        Api api = server.alice();
        byte[] bytes = Uploads.read(Videos.silentMp4());
        String id = Uploads.initA(api, "s.mp4", bytes.length, "video/mp4");
        assertEquals(200, Uploads.chunkA(api, id, 0, bytes).status());
        Api.Response first = api.postJson("/sync/complete_video_upload", Map.of("upload_id", id));
        Api.Response second = api.postJson("/sync/complete_video_upload", Map.of("upload_id", id));
        assertEquals(200, second.status());
        assertEquals(first.body().get("video_id"), second.body().get("video_id"));
        Api.Response late = Uploads.chunkA(api, id, 1, new byte[] {1, 2, 3});
        assertEquals(409, late.status());
        assertEquals("wrong_state", late.body().get("error").asText());
    }

    @Test
    void chunkChecksumIsVerifiedWhenSent() {
        Api api = server.alice();
        byte[] bytes = Uploads.read(Videos.silentMp4());
        String id = Uploads.initA(api, "s.mp4", bytes.length, "video/mp4");
        Api.Response good = api.postBytes(
                "/sync/upload_chunk",
                bytes,
                Map.of(
                        "X-Upload-Id",
                        id,
                        "X-Chunk-Index",
                        "0",
                        "X-Chunk-Sha256",
                        Uploads.sha256(bytes),
                        "X-Chunk-Crc32c",
                        Uploads.crc32c(bytes)));
        assertEquals(200, good.status(), good::toString);
        assertEquals(Uploads.sha256(bytes), good.body().get("sha256").asText());
        assertEquals(Uploads.crc32c(bytes), good.body().get("crc32c").asText());
        String task = Uploads.initB(api, "s.mp4");
        Api.Response b = api.postMultipart(
                "/sync_upload_chunk",
                Map.of(
                        "payload",
                        Api.write(Map.of(
                                "taskid",
                                task,
                                "index",
                                0,
                                "total",
                                1,
                                "sha256",
                                Uploads.sha256(bytes).toUpperCase(),
                                "crc32c",
                                Uploads.crc32c(bytes)))),
                "file",
                bytes);
        assertEquals(200, b.status(), b::toString);
        assertEquals(Uploads.sha256(bytes), b.body().get("sha256").asText());
    }

    interface Call {
        Api.Response call(int index);
    }

    /** Sends every index at once from its own thread, in a shuffled order. */
    static List<Api.Response> concurrently(int count, Call call) throws Exception {
        var order = new ArrayList<Integer>();
        for (int i = 0; i < count; i++) {
            order.add(i);
        }
        Collections.shuffle(order, new Random(7));
        try (var pool = Executors.newFixedThreadPool(count)) {
            var futures = new ArrayList<Future<Api.Response>>();
            for (int index : order) {
                futures.add(pool.submit((Callable<Api.Response>) () -> call.call(index)));
            }
            var results = new ArrayList<Api.Response>();
            for (Future<Api.Response> f : futures) {
                results.add(f.get());
            }
            return results;
        }
    }
}
