package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28, request memory and connections: JSON is parsed into trees of about 25 times its bytes,
 * times 32 requests in flight per user, times the users, and Jetty took any number of connections.
 * A node-wide budget now refuses (503) a body that would not fit beside those being held, and past
 * the connection limit new connections wait to be accepted.
 */
class RequestLimitsTest {
    @TempDir
    Path data;

    @Test
    void aBodyThatWouldPassTheMemoryBudgetIsRefused() throws Exception {
        // 3 MiB for request bodies: a held 100 kB JSON body reserves 2.5 MB, a 30 kB one 750 kB more does not fit.
        try (TestServer server = TestServer.start(
                data,
                Map.of(
                        "SCORECAST_MAX_BUFFER_BYTES",
                        String.valueOf(3 << 20),
                        "SCORECAST_MIN_REQUEST_BYTES_PER_SECOND",
                        "0"))) {
            String body = "{\"plan_id\": \"plan_nothing\", \"pad\": \"" + "x".repeat(30_000) + "\"}";
            // Bob's request holds its 2.5 MB from here until its body comes (HeldRequest says why it must be known
            // held).
            try (HeldRequest held = HeldRequest.open(server.port(), server.bobKey, "/sync/generate", 100_000)) {
                Api.Response refused = server.alice().postJson("/sync/execute", body);
                assertEquals(503, refused.status(), refused::toString);
                assertEquals("overloaded", refused.body().get("error").asText());
                assertNotNull(refused.header("Retry-After"));
                assertEquals(200, server.alice().get("/sync/library").status(), "a call without a body still runs");
                assertEquals(
                        "HTTP/1.1 404 Not Found",
                        held.finish(),
                        "the held request ran to its end (no analysis an_nothing)");
            }
            Api.Response admitted = server.alice().postJson("/sync/execute", body);
            assertEquals(404, admitted.status(), admitted::toString);
        }
    }

    @Test
    void pastTheConnectionLimitNewConnectionsWait() throws Exception {
        try (TestServer server = TestServer.start(data, Map.of("SCORECAST_MAX_CONNECTIONS", "16"))) {
            HttpClient http = CheckedHttpClient.newClient();
            HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/healthz"))
                    .timeout(Duration.ofSeconds(2))
                    .build();
            List<Socket> idle = new ArrayList<>();
            try {
                for (int i = 0; i < 16; i++) {
                    idle.add(new Socket("127.0.0.1", server.port()));
                }
                assertThrows(
                        HttpTimeoutException.class,
                        () -> CheckedHttpClient.newClient().send(health, HttpResponse.BodyHandlers.ofString()),
                        "a seventeenth connection is not accepted");
                idle.removeFirst().close();
                assertEquals(200, until(() -> {
                    try {
                        return CheckedHttpClient.newClient()
                                .send(health, HttpResponse.BodyHandlers.ofString())
                                .statusCode();
                    } catch (Exception e) {
                        return 0;
                    }
                }));
            } finally {
                for (Socket s : idle) {
                    s.close();
                }
            }
        }
    }

    private static int until(IntSupplier call) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        int last = 0;
        while (System.nanoTime() < deadline) {
            last = call.getAsInt();
            if (last == 200) {
                return last;
            }
            Thread.sleep(50);
        }
        return last;
    }
}
