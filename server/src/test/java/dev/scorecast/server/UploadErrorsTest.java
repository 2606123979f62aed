package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Bad input on every upload endpoint: the right status, the envelope, the field, never a 500. */
class UploadErrorsTest {
    static final int CHUNK_LIMIT = 256 * 1024;

    @TempDir
    static Path data;

    static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start(
                data,
                Map.of(
                        "SCORECAST_MAX_CHUNK_BYTES", String.valueOf(CHUNK_LIMIT),
                        "SCORECAST_MAX_FILE_BYTES", "8MiB",
                        "SCORECAST_MAX_DURATION_SECONDS", "5"));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static void assertError(Api.Response r, int status, String code, String field) {
        assertEquals(status, r.status(), r::toString);
        assertNotNull(r.body(), "JSON error body");
        assertEquals(code, r.body().get("error").asText(), r::toString);
        assertFalse(r.body().get("message").asText().isBlank());
        if (field != null) {
            assertEquals(field, r.body().path("field").asText(), r::toString);
        }
    }

    static Stream<Arguments> malformedJson() {
        return Stream.of(
                        "/sync/initialize_video_upload",
                        "/sync/complete_video_upload",
                        "/sync_upload_init",
                        "/sync_upload_complete")
                .flatMap(path -> Stream.of(
                        Arguments.of(path, "{not json"),
                        Arguments.of(path, ""),
                        Arguments.of(path, "[1, 2]"),
                        Arguments.of(path, "\"text\"")));
    }

    @ParameterizedTest
    @MethodSource
    void malformedJson(String path, String body) {
        Api.Response r = server.alice().postJson(path, body);
        assertError(r, 400, "invalid_parameter", "request body");
    }

    static Stream<Arguments> missingOrWrongFields() {
        return Stream.of(
                Arguments.of(
                        "/sync/initialize_video_upload",
                        Map.of("file_size", 10, "file_type", "video/mp4"),
                        "file_name"),
                Arguments.of(
                        "/sync/initialize_video_upload",
                        Map.of("file_name", "a.mp4", "file_type", "video/mp4"),
                        "file_size"),
                Arguments.of(
                        "/sync/initialize_video_upload", Map.of("file_name", "a.mp4", "file_size", 10), "file_type"),
                Arguments.of(
                        "/sync/initialize_video_upload",
                        Map.of("file_name", "a.mp4", "file_size", "ten", "file_type", "video/mp4"),
                        "file_size"),
                Arguments.of(
                        "/sync/initialize_video_upload",
                        Map.of("file_name", "a.mp4", "file_size", -5, "file_type", "video/mp4"),
                        "file_size"),
                Arguments.of(
                        "/sync/initialize_video_upload",
                        Map.of("file_name", "a.mp4", "file_size", 10, "file_type", "not a type"),
                        "file_type"),
                Arguments.of("/sync/complete_video_upload", Map.of(), "upload_id"),
                Arguments.of("/sync/complete_video_upload", Map.of("upload_id", 42), "upload_id"),
                Arguments.of("/sync_upload_init", Map.of(), "payload"),
                Arguments.of("/sync_upload_init", Map.of("payload", "x"), "payload"),
                Arguments.of("/sync_upload_init", Map.of("payload", Map.of()), "filename"),
                Arguments.of("/sync_upload_complete", Map.of("total", 1), "taskid"),
                Arguments.of("/sync_upload_complete", Map.of("taskid", "task_x"), "total"),
                Arguments.of("/sync_upload_complete", Map.of("taskid", "task_x", "total", 0), "total"));
    }

    @ParameterizedTest
    @MethodSource
    void missingOrWrongFields(String path, Map<String, Object> body, String field) {
        assertError(server.alice().postJson(path, body), 400, "invalid_parameter", field);
    }

    @Test
    void everyBadFieldIsNamedAtOnce() {
        Api.Response r = server.alice().postJson("/sync/initialize_video_upload", Map.of("file_size", "x"));
        assertEquals(400, r.status());
        assertEquals(3, r.body().get("problems").size(), r::toString);
    }

    @Test
    void chunkRequestsWithoutTheirHeadersOrParts() {
        Api api = server.alice();
        String id = Uploads.initA(api, "a.mp4", 100, "video/mp4");
        assertError(
                api.postBytes("/sync/upload_chunk", new byte[10], Map.of("X-Chunk-Index", "0")),
                400,
                "invalid_parameter",
                "X-Upload-Id");
        assertError(
                api.postBytes("/sync/upload_chunk", new byte[10], Map.of("X-Upload-Id", id)),
                400,
                "invalid_parameter",
                "X-Chunk-Index");
        assertError(
                api.postBytes("/sync/upload_chunk", new byte[10], Map.of("X-Upload-Id", id, "X-Chunk-Index", "first")),
                400,
                "invalid_parameter",
                "X-Chunk-Index");
        assertError(
                api.postBytes("/sync/upload_chunk", new byte[10], Map.of("X-Upload-Id", id, "X-Chunk-Index", "-1")),
                400,
                "invalid_parameter",
                "X-Chunk-Index");
        assertError(
                api.postBytes("/sync/upload_chunk", new byte[0], Map.of("X-Upload-Id", id, "X-Chunk-Index", "0")),
                400,
                "invalid_parameter",
                "body");
        assertError(
                api.postBytes(
                        "/sync/upload_chunk",
                        new byte[10],
                        Map.of("X-Upload-Id", id, "X-Chunk-Index", "0", "X-Chunk-Sha256", "abc")),
                400,
                "invalid_parameter",
                "X-Chunk-Sha256");

        String task = Uploads.initB(api, "b.mp4");
        assertError(
                api.postJson("/sync_upload_chunk", Map.of("taskid", task)), 400, "invalid_parameter", "Content-Type");
        assertError(
                api.postMultipart(
                        "/sync_upload_chunk",
                        Map.of("payload", Api.write(Map.of("taskid", task, "index", 0, "total", 1))),
                        null,
                        null),
                400,
                "invalid_parameter",
                "file");
        assertError(
                api.postMultipart("/sync_upload_chunk", Map.of(), "file", new byte[10]),
                400,
                "invalid_parameter",
                "payload");
        assertError(
                api.postMultipart("/sync_upload_chunk", Map.of("payload", "{oops"), "file", new byte[10]),
                400,
                "invalid_parameter",
                "payload");
        assertError(
                api.postMultipart(
                        "/sync_upload_chunk",
                        Map.of("payload", Api.write(Map.of("taskid", task, "total", 1))),
                        "file",
                        new byte[10]),
                400,
                "invalid_parameter",
                "index");
        assertError(Uploads.chunkB(api, task, 3, 2, new byte[10]), 400, "invalid_parameter", "index");
        assertError(Uploads.chunkB(api, task, 0, 0, new byte[10]), 400, "invalid_parameter", "total");
    }

    @Test
    void missingChunkIsNamedByComplete() {
        Api api = server.alice();
        byte[] bytes = Uploads.read(Videos.h264Aac());
        List<byte[]> chunks = Uploads.split(bytes, 4);
        String task = Uploads.initB(api, "v.mp4");
        for (int i : new int[] {0, 1, 3}) {
            assertEquals(200, Uploads.chunkB(api, task, i, 4, chunks.get(i)).status());
        }
        Api.Response r = api.postJson("/sync_upload_complete", Map.of("taskid", task, "total", 4));
        assertError(r, 409, "wrong_state", "chunks");
        assertEquals(List.of(2), Api.JSON.convertValue(r.body().get("missing_indices"), List.class));
        assertTrue(r.body().get("message").asText().contains("2"));
        // Send the missing chunk and the same complete succeeds.
        assertEquals(200, Uploads.chunkB(api, task, 2, 4, chunks.get(2)).status());
        assertEquals(
                200,
                api.postJson("/sync_upload_complete", Map.of("taskid", task, "total", 4))
                        .status());
    }

    @Test
    void variantAChecksTheDeclaredSize() {
        Api api = server.alice();
        byte[] bytes = Uploads.read(Videos.h264Aac());
        List<byte[]> chunks = Uploads.split(bytes, 3);
        String id = Uploads.initA(api, "v.mp4", bytes.length, "video/mp4");
        assertEquals(200, Uploads.chunkA(api, id, 0, chunks.get(0)).status());
        assertEquals(200, Uploads.chunkA(api, id, 2, chunks.get(2)).status());
        Api.Response gap = api.postJson("/sync/complete_video_upload", Map.of("upload_id", id));
        assertError(gap, 409, "wrong_state", "chunks");
        assertEquals(1, gap.body().get("missing_indices").get(0).asInt());
        // More bytes than declared are refused as they arrive.
        assertError(Uploads.chunkA(api, id, 1, new byte[chunks.get(1).length + 10]), 413, "too_large", "file_size");

        String shortUpload = Uploads.initA(api, "v.mp4", bytes.length, "video/mp4");
        assertEquals(200, Uploads.chunkA(api, shortUpload, 0, chunks.get(0)).status());
        assertError(
                api.postJson("/sync/complete_video_upload", Map.of("upload_id", shortUpload)),
                409,
                "wrong_state",
                "file_size");
    }

    @Test
    void wrongTotal() {
        Api api = server.alice();
        byte[] bytes = Uploads.read(Videos.h264Aac());
        List<byte[]> chunks = Uploads.split(bytes, 2);
        String task = Uploads.initB(api, "v.mp4");
        assertEquals(200, Uploads.chunkB(api, task, 0, 2, chunks.get(0)).status());
        assertError(Uploads.chunkB(api, task, 1, 3, chunks.get(1)), 409, "wrong_state", "total");
        assertEquals(200, Uploads.chunkB(api, task, 1, 2, chunks.get(1)).status());
        assertError(
                api.postJson("/sync_upload_complete", Map.of("taskid", task, "total", 3)), 409, "wrong_state", "total");
        assertEquals(
                200,
                api.postJson("/sync_upload_complete", Map.of("taskid", task, "total", 2))
                        .status());
    }

    @Test
    void oversizeChunkIsRefusedAndNothingIsStored() {
        Api api = server.alice();
        byte[] big = new byte[CHUNK_LIMIT + 1];
        String id = Uploads.initA(api, "v.mp4", 4L << 20, "video/mp4");
        assertError(Uploads.chunkA(api, id, 0, big), 413, "too_large", "body");
        String task = Uploads.initB(api, "v.mp4");
        assertError(Uploads.chunkB(api, task, 0, 1, big), 413, "too_large", "file");
        assertEquals(
                0,
                api.get("/sync/upload_status?upload_id=" + id)
                        .body()
                        .get("chunks")
                        .size());
        assertError(
                api.postJson(
                        "/sync/initialize_video_upload",
                        Map.of("file_name", "v.mp4", "file_size", 9L << 20, "file_type", "video/mp4")),
                413,
                "too_large",
                "file_size");
    }

    @Test
    void wrongChecksumIsRefusedAndNothingIsStored() {
        Api api = server.alice();
        byte[] bytes = Uploads.read(Videos.silentMp4());
        String id = Uploads.initA(api, "s.mp4", bytes.length, "video/mp4");
        String wrong = Uploads.sha256(new byte[] {1});
        assertError(
                api.postBytes(
                        "/sync/upload_chunk",
                        bytes,
                        Map.of("X-Upload-Id", id, "X-Chunk-Index", "0", "X-Chunk-Sha256", wrong)),
                400,
                "invalid_parameter",
                "X-Chunk-Sha256");
        assertError(
                api.postBytes(
                        "/sync/upload_chunk",
                        bytes,
                        Map.of("X-Upload-Id", id, "X-Chunk-Index", "0", "X-Chunk-Crc32c", "00000000")),
                400,
                "invalid_parameter",
                "X-Chunk-Crc32c");
        assertError(
                api.postBytes(
                        "/sync/upload_chunk",
                        bytes,
                        Map.of("X-Upload-Id", id, "X-Chunk-Index", "0", "X-Chunk-Crc32c", "xyz")),
                400,
                "invalid_parameter",
                "X-Chunk-Crc32c");
        assertEquals(
                0,
                api.get("/sync/upload_status?upload_id=" + id)
                        .body()
                        .get("chunks")
                        .size());

        String task = Uploads.initB(api, "s.mp4");
        assertError(
                api.postMultipart(
                        "/sync_upload_chunk",
                        Map.of(
                                "payload",
                                Api.write(Map.of("taskid", task, "index", 0, "total", 1, "crc32c", "00000000"))),
                        "file",
                        bytes),
                400,
                "invalid_parameter",
                "crc32c");
        Api.Response r = api.postMultipart(
                "/sync_upload_chunk",
                Map.of("payload", Api.write(Map.of("taskid", task, "index", 0, "total", 1, "sha256", wrong))),
                "file",
                bytes);
        assertError(r, 400, "invalid_parameter", "sha256");
        assertError(
                api.postJson("/sync_upload_complete", Map.of("taskid", task, "total", 1)),
                409,
                "wrong_state",
                "chunks");
    }

    @Test
    void randomBytesPosingAsAVideoAre415AndTheUploadCanBeRetried() {
        Api api = server.alice();
        byte[] junk = new byte[50_000];
        new Random(1).nextBytes(junk);
        String id = Uploads.initA(api, "holiday.mp4", junk.length, "video/mp4");
        assertEquals(200, Uploads.chunkA(api, id, 0, junk).status());
        assertError(
                api.postJson("/sync/complete_video_upload", Map.of("upload_id", id)), 415, "unsupported_media", "file");
        assertEquals(
                "active",
                api.get("/sync/upload_status?upload_id=" + id)
                        .body()
                        .get("state")
                        .asText());

        String task = Uploads.initB(api, "holiday.mp4");
        assertEquals(200, Uploads.chunkB(api, task, 0, 1, junk).status());
        assertError(
                api.postJson("/sync_upload_complete", Map.of("taskid", task, "total", 1)),
                415,
                "unsupported_media",
                "file");
    }

    @Test
    void notAVideoMediaTypeIs415() {
        assertError(
                server.alice()
                        .postJson(
                                "/sync/initialize_video_upload",
                                Map.of("file_name", "a.png", "file_size", 10, "file_type", "image/png")),
                415,
                "unsupported_media",
                "file_type");
    }

    @Test
    void videoLongerThanTheLimitIs422() {
        Path longVideo = Videos.make(
                "long-6s.mp4",
                "-f lavfi -i testsrc2=size=160x120:rate=10 -t 6 -c:v libx264 -preset ultrafast -pix_fmt yuv420p");
        assertError(Uploads.uploadA(server.alice(), longVideo, "video/mp4", 1), 422, "unprocessable", "file");
    }

    @Test
    void unknownIdsAre404() {
        Api api = server.alice();
        assertError(Uploads.chunkA(api, "upl_doesnotexist", 0, new byte[5]), 404, "not_found", "upload_id");
        assertError(
                api.postJson("/sync/complete_video_upload", Map.of("upload_id", "upl_nope")),
                404,
                "not_found",
                "upload_id");
        assertError(api.get("/sync/upload_status?upload_id=upl_nope"), 404, "not_found", "upload_id");
        assertError(Uploads.chunkB(api, "task_nope", 0, 1, new byte[5]), 404, "not_found", "taskid");
        assertError(
                api.postJson("/sync_upload_complete", Map.of("taskid", "task_nope", "total", 1)),
                404,
                "not_found",
                "taskid");
        // An id of one variant is unknown to the other.
        String task = Uploads.initB(api, "x.mp4");
        assertError(api.get("/sync/upload_status?upload_id=" + task), 404, "not_found", "upload_id");
        assertError(api.get("/sync/no_such_endpoint"), 404, "not_found", null);
    }
}
