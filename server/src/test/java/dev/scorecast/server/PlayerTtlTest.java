package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A stream left alone expires after its TTL, and expiry frees its performance (synthesizer, encoders, loop). */
class PlayerTtlTest {
    @TempDir
    Path data;

    @Test
    void theTtlCountsDownAndExpiryCleansUp() throws Exception {
        try (TestServer server = TestServer.start(data, Map.of("SCORECAST_STREAM_TTL_SECONDS", "3"))) {
            Api api = server.alice();
            Api.Response created = api.postJson("/player/create-stream", "");
            assertEquals(201, created.status(), created::toString);
            assertEquals(3, created.body().get("ttl").asDouble());
            assertEquals(200, api.postJson("/player/start", Map.of("experience_id", "lofi-rainy-desk")).status());
            assertEquals(200, api.postJson("/player/set_intensity", Map.of("intensity", 0.9)).status()); // a private performance
            double first = api.get("/player/stream_ttl").body().get("ttl").asDouble();
            Thread.sleep(1200);
            double later = api.get("/player/stream_ttl").body().get("ttl").asDouble();
            System.out.printf("player: ttl %.1f s, then %.1f s%n", first, later);
            assertTrue(first > 2.5 && first <= 3, "ttl " + first);
            assertTrue(later < first - 0.8 && later > 0, "ttl counts down: " + first + " then " + later);
            assertTrue(server.server.player().engine().performances() >= 1);
            long deadline = System.nanoTime() + 6_000_000_000L;
            while (server.server.player().streams() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertEquals(0, server.server.player().streams(), "the stream expired");
            Thread.sleep(300);
            assertEquals(0, server.server.player().engine().performances(), "its performance was freed");
            assertEquals("none", api.get("/player/liveliness").body().get("stream").asText());
            assertEquals(404, api.get("/player/transport").status());
            assertEquals(201, api.postJson("/player/create-stream", "").status(), "a new stream can be created");
        }
    }
}
