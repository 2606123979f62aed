package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28, PostgreSQL faults: with no connect, socket or statement limits and the pool's 30 s
 * wait, a database that went away or hung held requests for as long as it lasted and then answered
 * 500. Now a call answers 503 {@code overloaded} with Retry-After within seconds, and calls succeed
 * again as soon as the database answers.
 */
class DatabaseOutageTest {
    @TempDir
    Path data;

    @Test
    void callsAnswer503WhileTheDatabaseIsAwayOrHangs() throws Exception {
        PostgresSchema.run(url -> {
            URI target = URI.create(url.substring("jdbc:".length()));
            try (TcpGate gate = new TcpGate(target.getHost(), target.getPort())) {
                gate.open();
                // A socket timeout of 3 s (the default is 60) keeps the hang short; the URL's own value wins over the
                // default.
                String through = url.replace(target.getHost() + ":" + target.getPort(), "127.0.0.1:" + gate.port())
                        + "&socketTimeout=3";
                try (TestServer server =
                        TestServer.start(data, Map.of("SCORECAST_DB_URL", through, "SCORECAST_ROLE", "api"))) {
                    Api alice = server.alice();
                    assertEquals(200, alice.get("/sync/library").status());

                    gate.shut();
                    long started = System.nanoTime();
                    Api.Response away = alice.get("/sync/library");
                    double awaySeconds = (System.nanoTime() - started) / 1e9;
                    assertEquals(503, away.status(), away::toString);
                    assertEquals("overloaded", away.body().get("error").asText());
                    assertNotNull(away.header("Retry-After"));
                    assertTrue(awaySeconds < 10, "answered after " + awaySeconds + " s");

                    gate.open();
                    assertEquals(200, until200(alice), "calls succeed again once the database answers");

                    gate.stall();
                    started = System.nanoTime();
                    Api.Response hung = alice.get("/sync/library");
                    double hungSeconds = (System.nanoTime() - started) / 1e9;
                    assertEquals(503, hung.status(), hung::toString);
                    assertTrue(hungSeconds < 15, "answered after " + hungSeconds + " s");
                    gate.resume();
                    assertEquals(200, until200(alice));
                    System.out.printf(
                            "database outage: refused connections answered 503 in %.1f s, a hung database in %.1f s%n",
                            awaySeconds, hungSeconds);
                }
            }
        });
    }

    /** Calls until a 200, for at most 20 s (the pool replaces its broken connections). */
    private static int until200(Api api) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        int status = 0;
        while (System.nanoTime() < deadline) {
            status = api.get("/sync/library").status();
            if (status == 200) {
                return status;
            }
            Thread.sleep(100);
        }
        return status;
    }
}
