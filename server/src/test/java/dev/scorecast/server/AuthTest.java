package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keys and ownership: no key, a wrong key, and another user's ids. */
class AuthTest {
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
    void everyEndpointNeedsAKey() {
        for (var route : server.server.routes()) {
            if (RequestGate.isPublic(route.path())) {
                continue; // the server's own list of what needs no key (publicPathsAreThoseThatCarryTheirOwnAccess)
            }
            for (String key : new String[] {null, "sc_aaaaaaaaaaaa_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "not-a-key"}) {
                Api api = server.api(key);
                String path =
                        route.path().replaceAll("\\{[^}]+}", "x"); // a path parameter: any value reaches the check
                Api.Response r = switch (route.method()) {
                    case "GET" -> api.get(path);
                    case "DELETE" -> api.delete(path);
                    default -> api.postJson(path, "{}");
                };
                assertEquals(401, r.status(), route + " with " + key + ": " + r);
                assertEquals("unauthorized", r.body().get("error").asText());
                assertTrue(r.header("WWW-Authenticate").startsWith("Bearer"), route.toString());
            }
        }
    }

    /**
     * The paths served without a key, each for its reason: the API description, downloads that carry their own signature,
     * the studio page (StudioPageTest), health and metrics for load balancers and scrapers (ScaleOutTest), and the shared
     * experiences' HLS, the same for every listener so that a CDN can cache it (HlsTest). Every other route needs a key.
     */
    @Test
    void publicPathsAreThoseThatCarryTheirOwnAccess() {
        var publicRoutes = server.server.routes().stream()
                .map(ScorecastServer.Route::path)
                .filter(RequestGate::isPublic)
                .distinct()
                .sorted()
                .toList();
        assertEquals(
                List.of(
                        "/",
                        "/files/{execution}/{name}",
                        "/healthz",
                        "/metrics",
                        "/openapi.json",
                        "/player/hls/{experience}/index.m3u8",
                        "/player/hls/{experience}/init.mp4",
                        "/player/hls/{experience}/media/{file}",
                        "/readyz",
                        "/studio/{file}"),
                publicRoutes);
        for (String path : List.of(
                "/sync_upload_init",
                "/sync/upload_chunk",
                "/player/streams",
                "/files",
                "/studiox",
                "/openapi.json/x")) {
            assertFalse(RequestGate.isPublic(path), path);
        }
    }

    @Test
    void aTamperedSecretIsRefused() {
        String key = server.aliceKey;
        String tampered = key.substring(0, key.length() - 1) + (key.endsWith("a") ? "b" : "a");
        assertEquals(
                401,
                server.api(tampered)
                        .postJson("/sync_upload_init", Map.of("payload", Map.of("filename", "a")))
                        .status());
    }

    @Test
    void aLargeChunkSentToAnotherUsersUploadGetsItsAnswer() {
        // The 404 comes before the body is read; the client is still sending 8 MiB and must read the
        // answer, not a reset connection (ApiErrors drains a refused body).
        String id = Uploads.initA(server.alice(), "a.mp4", 16 << 20, "video/mp4");
        byte[] chunk = new byte[8 << 20];
        for (int i = 0; i < 3; i++) {
            Api.Response r = Uploads.chunkA(server.bob(), id, 0, chunk);
            assertEquals(404, r.status());
            assertEquals("not_found", r.body().get("error").asText());
        }
    }

    @Test
    void anotherUsersUploadIsUnknown() {
        Api alice = server.alice();
        Api bob = server.bob();
        byte[] bytes = Uploads.read(Videos.silentMp4());
        List<byte[]> chunks = Uploads.split(bytes, 2);
        String id = Uploads.initA(alice, "a.mp4", bytes.length, "video/mp4");
        assertEquals(200, Uploads.chunkA(alice, id, 0, chunks.get(0)).status());

        assertEquals(404, Uploads.chunkA(bob, id, 1, chunks.get(1)).status());
        assertEquals(404, bob.get("/sync/upload_status?upload_id=" + id).status());
        Api.Response r = bob.postJson("/sync/complete_video_upload", Map.of("upload_id", id));
        assertEquals(404, r.status());
        assertEquals("not_found", r.body().get("error").asText());

        String task = Uploads.initB(alice, "b.mp4");
        assertEquals(404, Uploads.chunkB(bob, task, 0, 1, bytes).status());
        assertEquals(
                404,
                bob.postJson("/sync_upload_complete", Map.of("taskid", task, "total", 1))
                        .status());

        // Alice's upload is untouched by Bob's attempts.
        assertEquals(200, Uploads.chunkA(alice, id, 1, chunks.get(1)).status());
        assertEquals(
                200,
                alice.postJson("/sync/complete_video_upload", Map.of("upload_id", id))
                        .status());
    }
}
