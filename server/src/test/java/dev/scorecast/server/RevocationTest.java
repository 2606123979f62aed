package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Revoking an API key ends what it holds within seconds: the live stream made with it (its
 * listener is cut off), the stream's session token and signed link; the user's other key goes on.
 * Before, revocation refused only new calls with the key: the stream played on for its TTL (15
 * minutes, renewed by every listener) and its session token kept controlling it.
 */
class RevocationTest {
    @TempDir
    Path data;

    @Test
    void revokingAKeyEndsItsStreamSessionTokenAndLinkWithinSeconds() throws Exception {
        try (TestServer server = TestServer.start(data, Map.of())) {
            String revokedKey = server.server.keys().create("carol");
            String otherKey = server.server.keys().create("carol");
            Api carol = server.api(revokedKey);
            Api.Response created = carol.postJson("/player/create-stream", "");
            assertEquals(201, created.status(), created::toString);
            JsonNode stream = created.body();
            assertEquals(
                    200,
                    carol.postJson("/player/start", Map.of("experience_id", "lofi-rainy-desk"))
                            .status());
            String token = stream.get("session_token").asText();
            Api withToken = server.api(token);
            assertEquals(200, withToken.get("/player/stream_ttl").status(), "the session token works before");
            try (LiveAudio listener = LiveAudio.open(stream.get("stream_url").asText(), null)) {
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (listener.size() < 48_000 && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                assertTrue(listener.size() >= 48_000, "the listener hears the stream first");

                long revoked = System.nanoTime();
                assertTrue(server.server.keys().revoke(revokedKey));
                deadline = revoked + 10_000_000_000L;
                while (!listener.ended && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                double seconds = (System.nanoTime() - revoked) / 1e9;
                System.out.printf("revocation: listener cut off %.2f s after the key was revoked%n", seconds);
                assertTrue(listener.ended, "the listener is cut off");
                assertTrue(seconds < 5, "within 5 s, took " + seconds);
            }
            assertEquals(401, withToken.get("/player/stream_ttl").status(), "the session token is dead");
            assertEquals(
                    401,
                    server.api(null)
                            .get(stream.get("stream_url")
                                    .asText()
                                    .substring(stream.get("stream_url").asText().indexOf("/player/")))
                            .status(),
                    "the signed stream link is dead");
            assertEquals(401, carol.get("/player/stream_ttl").status(), "the key itself is refused");
            Api.Response again = server.api(otherKey).postJson("/player/create-stream", "");
            assertEquals(201, again.status(), "the user's other key makes a new stream: " + again);
        }
    }
}
