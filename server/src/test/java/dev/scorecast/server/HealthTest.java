package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.server.config.ServerConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28, the health endpoints: readiness cached with one check in flight, metrics counted at most
 * every few seconds, failures answered in general terms, an operations token or port, failed
 * authentications throttled per address, and a node that waits for its database instead of exiting.
 */
class HealthTest {
    /** Answers held to /openapi.json, the operations port's too (CheckedHttpClient). */
    private static final HttpClient HTTP = CheckedHttpClient.of(
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build());

    @TempDir
    Path data;

    private static long metric(String text, String name) {
        Matcher m = Pattern.compile("(?m)^" + name + " (\\d+)$").matcher(text);
        assertTrue(m.find(), name + " is reported");
        return Long.parseLong(m.group(1));
    }

    /** 40 probes at once and 40 more in a row make at most two checks, and 40 scrapes at most two counts of the job queue. */
    @Test
    void readinessAndMetricsAskTheirSourcesOnceEveryFewSeconds() throws Exception {
        try (TestServer server = TestServer.start(data)) {
            Api anonymous = server.api(null);
            long checks = metric(anonymous.get("/metrics").raw().body(), "scorecast_readiness_checks_total");
            long counts = metric(anonymous.get("/metrics").raw().body(), "scorecast_job_count_queries_total");
            for (Api.Response r : AtOnce.send(40, () -> anonymous.get("/readyz"))) {
                assertEquals(200, r.status(), r::toString);
            }
            for (int i = 0; i < 40; i++) {
                assertEquals(200, anonymous.get("/readyz").status());
                anonymous.get("/metrics");
            }
            String text = anonymous.get("/metrics").raw().body();
            long made = metric(text, "scorecast_readiness_checks_total") - checks;
            long counted = metric(text, "scorecast_job_count_queries_total") - counts;
            System.out.printf("health: 80 /readyz made %d checks, 42 /metrics %d counts of the jobs%n", made, counted);
            assertTrue(made >= 1 && made <= 2, "checks made: " + made);
            assertTrue(counted <= 2, "job counts made: " + counted);
        }
    }

    /** With SCORECAST_OPS_TOKEN, readiness and metrics need it and liveness tells nothing more than "ok"; SCORECAST_OPS_PORT moves them. */
    @Test
    void anOperationsTokenAndPortGuardReadinessAndMetrics() throws Exception {
        String token = "ops-token-0123456789abcdef";
        try (TestServer server = TestServer.start(data, Map.of("SCORECAST_OPS_TOKEN", token))) {
            Api anonymous = server.api(null);
            Api operator = server.api(token);
            assertEquals(401, anonymous.get("/readyz").status());
            assertEquals(401, anonymous.get("/metrics").status());
            assertEquals(401, server.alice().get("/metrics").status(), "an API key is not the operations token");
            assertEquals(200, operator.get("/readyz").status());
            assertTrue(operator.get("/metrics").raw().body().contains("scorecast_jobs"));
            assertFalse(anonymous.get("/healthz").body().has("node"), "liveness names no node without the token");
            assertTrue(operator.get("/healthz").body().has("node"));
        }
        try (TestServer server = TestServer.start(data, Map.of("SCORECAST_OPS_PORT", "0"))) {
            int ops = server.server.opsPort();
            assertTrue(ops != server.port());
            assertEquals(404, raw(server.port(), "/readyz").statusCode(), "readiness is not on the API's port");
            assertEquals(404, raw(server.port(), "/metrics").statusCode());
            assertEquals(200, raw(server.port(), "/healthz").statusCode());
            assertEquals(200, raw(ops, "/readyz").statusCode());
            assertTrue(raw(ops, "/metrics").body().contains("scorecast_readiness_checks_total"));
        }
    }

    /** Ten wrong keys a minute from one address: the eleventh call from it is 429, valid key or not, until the allowance grows back. */
    @Test
    void failedAuthenticationsAreThrottledPerAddress() {
        var clock = new VirtualClock(Instant.parse("2026-11-27T00:00:00Z"));
        try (TestServer server = TestServer.start(data, Map.of("SCORECAST_AUTH_FAILURES_PER_MINUTE", "10"), clock)) {
            Api guesser = server.api("sc_nosuchkey_guessedsecret");
            for (int i = 0; i < 10; i++) {
                assertEquals(401, guesser.get("/sync/library").status(), "guess " + i);
            }
            Api.Response throttled = guesser.get("/sync/library");
            assertEquals(429, throttled.status(), throttled::toString);
            assertNotNull(throttled.header("Retry-After"));
            assertEquals(
                    429, server.alice().get("/sync/library").status(), "nothing more is looked up from that address");
            assertTrue(server.api(null).get("/metrics").raw().body().contains("scorecast_auth_throttled_total 2"));
            clock.advance(Duration.ofSeconds(6));
            assertEquals(
                    200, server.alice().get("/sync/library").status(), "one failure's allowance is back after 6 s");
            assertEquals(401, guesser.get("/sync/library").status());
            assertEquals(429, guesser.get("/sync/library").status());
        }
    }

    /**
     * A node whose database does not answer at start keeps trying, answering /readyz 503 (naming no
     * host) and every other call 503, and serves once the database answers; when the database goes
     * away later, /readyz turns 503 again, still naming no host or port.
     */
    // Tagged slow (bin/test --all): a node waiting on the wall clock for a database that is not there, 12.5 s.
    @Test
    @Tag("slow")
    void aNodeWaitsForItsDatabaseAndNamesNoHost() throws Exception {
        PostgresSchema.run(url -> {
            URI target = URI.create(url.substring("jdbc:".length()));
            try (TcpGate gate = new TcpGate(target.getHost(), target.getPort())) {
                String through = url.replace(target.getHost() + ":" + target.getPort(), "127.0.0.1:" + gate.port());
                int port;
                try (var socket = new ServerSocket(0)) {
                    port = socket.getLocalPort();
                }
                var env = new HashMap<String, String>();
                env.put("SCORECAST_DATA", data.toString());
                env.put("SCORECAST_HOST", "127.0.0.1");
                env.put("SCORECAST_PORT", String.valueOf(port));
                env.put("SCORECAST_DB_URL", through);
                env.put("SCORECAST_ROLE", "api");
                env.put("SCORECAST_MIN_FREE_BYTES", "0");
                env.put("SCORECAST_SOUNDFONT", "/usr/share/sounds/sf2/TimGM6mb.sf2");
                env.put("SCORECAST_LIVE_WARMUP_SECONDS", "0");
                CompletableFuture<ScorecastServer> starting =
                        CompletableFuture.supplyAsync(() -> ScorecastServer.start(ServerConfig.from(env)));
                HttpResponse<String> ready = awaitAnswer(port, "/readyz");
                assertEquals(503, ready.statusCode(), ready.body());
                assertFalse(
                        ready.body().contains(String.valueOf(gate.port()))
                                || ready.body().contains("127.0.0.1"),
                        ready.body());
                assertEquals("5", ready.headers().firstValue("Retry-After").orElse(null));
                assertEquals(200, raw(port, "/healthz").statusCode());
                assertEquals(503, raw(port, "/sync/library").statusCode());
                assertFalse(starting.isDone(), "the node waits for its database");

                gate.open();
                try (ScorecastServer server = starting.get(60, TimeUnit.SECONDS)) {
                    assertEquals(port, server.port());
                    assertEquals(200, raw(port, "/readyz").statusCode());

                    gate.shut();
                    HttpResponse<String> lost = null;
                    long deadline = System.nanoTime() + 30_000_000_000L;
                    while (System.nanoTime() < deadline) {
                        lost = raw(port, "/readyz");
                        if (lost.statusCode() == 503) {
                            break;
                        }
                    }
                    assertEquals(503, lost.statusCode(), "readiness turns 503 when the database goes");
                    assertTrue(lost.body().contains("\"database\":\"unreachable\""), lost.body());
                    assertFalse(
                            lost.body().contains(String.valueOf(gate.port()))
                                    || lost.body().contains("127.0.0.1")
                                    || lost.body().contains("Connection"),
                            lost.body());
                    gate.open();
                }
            }
        });
    }

    private static HttpResponse<String> awaitAnswer(int port, String path) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            try {
                return raw(port, path);
            } catch (UncheckedIOException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.onSpinWait();
                Thread.sleep(50); // polling a port that is not open yet, with a deadline
            }
        }
    }

    private static HttpResponse<String> raw(int port, String path) {
        try {
            return HTTP.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                            .timeout(Duration.ofSeconds(20))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
