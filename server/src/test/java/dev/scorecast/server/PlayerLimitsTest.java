package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The player's limits: a stream left alone expires after its TTL, and expiry frees its performance
 * (synthesizer, encoders, loop); past the configured number of playing synthesizers, a call that
 * needs another is refused as busy, while joining a shared performance still works.
 */
class PlayerLimitsTest {
    @TempDir
    Path data;

    @Test
    void theTtlCountsDownAndExpiryCleansUp() throws Exception {
        VirtualClock clock = new VirtualClock(Instant.parse("2026-11-26T09:00:00Z"));
        try (TestServer server = TestServer.start(data, Map.of("SCORECAST_STREAM_TTL_SECONDS", "3"), clock)) {
            Api api = server.alice();
            Api.Response created = api.postJson("/player/create-stream", "");
            assertEquals(201, created.status(), created::toString);
            assertEquals(3, created.body().get("ttl").asDouble());
            assertEquals(
                    200,
                    api.postJson("/player/start", Map.of("experience_id", "lofi-rainy-desk"))
                            .status());
            assertEquals(
                    200,
                    api.postJson("/player/set_intensity", Map.of("intensity", 0.9))
                            .status()); // a private performance
            double first = api.get("/player/stream_ttl").body().get("ttl").asDouble();
            clock.advance(Duration.ofMillis(1200));
            double later = api.get("/player/stream_ttl").body().get("ttl").asDouble();
            // Virtual time: the TTL counts down by exactly the time the test moved on, however busy the machine.
            assertEquals(3.0, first, 1e-9);
            assertEquals(1.8, later, 1e-9);
            assertTrue(server.server.player().engine().performances() >= 1);
            clock.advance(Duration.ofMillis(1900));
            // The once-a-second sweep runs on real time; it finds the stream past its TTL at its next turn.
            long deadline = System.nanoTime() + 6_000_000_000L;
            while (server.server.player().streams() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertEquals(0, server.server.player().streams(), "the stream expired");
            Thread.sleep(300);
            assertEquals(0, server.server.player().engine().performances(), "its performance was freed");
            assertEquals(
                    "none", api.get("/player/liveliness").body().get("stream").asText());
            assertEquals(404, api.get("/player/transport").status());
            assertEquals(201, api.postJson("/player/create-stream", "").status(), "a new stream can be created");
        }
    }

    @Test
    void pastCapacityANewPerformanceIsRefusedButSharingStillWorks() throws Exception {
        try (TestServer server = TestServer.start(data, Map.of("SCORECAST_LIVE_MAX_PERFORMANCES", "1"))) {
            Api alice = server.alice();
            Api bob = server.bob();
            Api carol = server.api(server.server.keys().create("carol"));
            for (Api api : new Api[] {alice, bob, carol}) {
                assertEquals(201, api.postJson("/player/create-stream", "").status());
            }
            assertEquals(
                    200,
                    alice.postJson("/player/start", Map.of("experience_id", "rock-open-highway"))
                            .status());
            Api.Response refused = bob.postJson("/player/start", Map.of("experience_id", "techno-warehouse"));
            assertEquals(429, refused.status(), refused::toString);
            assertEquals("busy", refused.body().get("error").asText());
            assertTrue(refused.header("Retry-After") != null);
            // The same experience, unchanged, is the same performance: no synthesizer more.
            assertEquals(
                    200,
                    carol.postJson("/player/start", Map.of("experience_id", "rock-open-highway"))
                            .status());
            assertEquals(1, server.server.player().engine().sounding());
            // A change of her own would need a copy of it, which does not fit.
            assertEquals(
                    429,
                    carol.postJson("/player/set_intensity", Map.of("intensity", 0.9))
                            .status());
            assertEquals(200, alice.postJson("/player/end_stream", "").status());
            assertEquals(200, carol.postJson("/player/end_stream", "").status());
            long deadline = System.nanoTime() + 2_000_000_000L;
            while (server.server.player().engine().sounding() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(0, server.server.player().engine().sounding(), "ending the streams freed the synthesizer");
            assertEquals(
                    200,
                    bob.postJson("/player/start", Map.of("experience_id", "techno-warehouse"))
                            .status());
        }
    }
}
