package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One user's requests in progress at once are capped; past the cap 429, and other users are not affected. */
class RequestsInFlightTest {
    @TempDir
    Path data;

    @Test
    void aUserPastTheCapIsAnswered429UntilARequestEnds() throws Exception {
        try (TestServer server = TestServer.start(
                data, Map.of("SCORECAST_MAX_REQUESTS_IN_FLIGHT", "2", "SCORECAST_MIN_REQUEST_BYTES_PER_SECOND", "0"))) {
            Api alice = server.alice();
            // Two of Alice's requests in flight from here until their bodies come (HeldRequest says why they must be
            // known held).
            List<HeldRequest> held = new ArrayList<>();
            try {
                for (int i = 0; i < 2; i++) {
                    held.add(HeldRequest.open(server.port(), server.aliceKey, "/sync/generate", 100));
                }
                Api.Response refused = alice.get("/player/genres");
                assertEquals(429, refused.status(), refused::toString);
                assertEquals("busy", refused.body().get("error").asText(), refused::toString);
                assertEquals(
                        "1", refused.raw().headers().firstValue("Retry-After").orElse(null));
                assertEquals(200, server.bob().get("/player/genres").status(), "another user is not affected");
                assertEquals(
                        "HTTP/1.1 404 Not Found",
                        held.getFirst().finish(),
                        "a held request ran to its end (no analysis an_nothing)");
                Api.Response admitted = alice.get("/player/genres");
                assertEquals(200, admitted.status(), admitted::toString);
            } finally {
                for (HeldRequest request : held) {
                    request.close();
                }
            }
        }
    }
}
