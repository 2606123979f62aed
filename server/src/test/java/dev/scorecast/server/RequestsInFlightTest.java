package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One user's requests in progress at once are capped; past the cap 429, and other users are not affected. */
class RequestsInFlightTest {
    @TempDir
    Path data;

    @Test
    void aUserPastTheCapIsAnswered429UntilARequestEnds() throws Exception {
        try (TestServer server = TestServer.start(data, Map.of("SCORECAST_MAX_REQUESTS_IN_FLIGHT", "2",
                "SCORECAST_MIN_REQUEST_BYTES_PER_SECOND", "0"))) {
            Api alice = server.alice();
            List<Socket> held = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                // A request whose body never comes: its handler waits on it, in flight.
                Socket socket = new Socket("127.0.0.1", server.port());
                OutputStream out = socket.getOutputStream();
                out.write(("POST /sync/generate HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + server.aliceKey
                        + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                held.add(socket);
            }
            Api.Response refused = until(() -> alice.get("/player/genres"), status -> status == 429);
            assertEquals("busy", refused.body().get("error").asText(), refused::toString);
            assertEquals("1", refused.raw().headers().firstValue("Retry-After").orElse(null));
            assertEquals(200, server.bob().get("/player/genres").status(), "another user is not affected");
            for (Socket socket : held) {
                socket.close(); // the handlers' reads fail; their requests end
            }
            until(() -> alice.get("/player/genres"), status -> status == 200);
        }
    }

    /** Calls {@code call} until its status passes {@code wanted}, for at most 10 s. */
    private static Api.Response until(java.util.function.Supplier<Api.Response> call, IntPredicate wanted) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        Api.Response last = null;
        while (System.nanoTime() < deadline) {
            last = call.get();
            if (wanted.test(last.status())) {
                return last;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("never reached the wanted status; last answer: " + last);
    }
}
