package dev.scorecast.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.server.CheckedHttpClient;
import dev.scorecast.server.ScorecastServer;
import dev.scorecast.server.config.ServerConfig;
import dev.scorecast.server.webhooks.Receiver;
import dev.scorecast.server.webhooks.WebhookSigner;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScorecastCliTest {
    @TempDir
    Path data;

    @Test
    void keyCreatedByTheCommandWorksAtOnceOnARunningServer() throws Exception {
        Map<String, String> env = Map.of(
                "SCORECAST_DATA",
                data.toString(),
                "SCORECAST_HOST",
                "127.0.0.1",
                "SCORECAST_LIVE_WARMUP_SECONDS",
                "0",
                "SCORECAST_MIN_FREE_BYTES",
                "0");
        try (ScorecastServer server =
                ScorecastServer.start(ServerConfig.from(env).withPort(0))) {
            assertTrue(server.developmentKey().isPresent(), "a first start with no keys makes a development key");
            var out = new ByteArrayOutputStream();
            int status = ScorecastCli.run(
                    List.of("keys", "create", "--user", "erin"),
                    env,
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    System.err);
            assertEquals(0, status);
            String key = out.toString(StandardCharsets.UTF_8).strip();
            assertTrue(key.matches("sc_[a-z2-7]{12}_[a-z2-7]{32}"), key);

            HttpResponse<String> response = CheckedHttpClient.newClient()
                    .send(
                            HttpRequest.newBuilder(
                                            URI.create("http://127.0.0.1:" + server.port() + "/sync_upload_init"))
                                    .header("Authorization", "Bearer " + key)
                                    .POST(HttpRequest.BodyPublishers.ofString("{\"payload\":{\"filename\":\"a.mp4\"}}"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());

            var listed = new ByteArrayOutputStream();
            assertEquals(
                    0,
                    ScorecastCli.run(
                            List.of("keys", "list", "--user", "erin"),
                            env,
                            new PrintStream(listed, true, StandardCharsets.UTF_8),
                            System.err));
            String keyId = key.substring(3, 15);
            assertTrue(listed.toString(StandardCharsets.UTF_8).contains(keyId), listed::toString);
            assertFalse(
                    listed.toString(StandardCharsets.UTF_8).contains(key.substring(16)), "the secret is never printed");
            assertEquals(0, ScorecastCli.run(List.of("keys", "revoke", keyId), env, System.out, System.err));
            HttpResponse<String> refused = CheckedHttpClient.newClient()
                    .send(
                            HttpRequest.newBuilder(
                                            URI.create("http://127.0.0.1:" + server.port() + "/sync_upload_init"))
                                    .header("Authorization", "Bearer " + key)
                                    .POST(HttpRequest.BodyPublishers.ofString("{\"payload\":{\"filename\":\"a.mp4\"}}"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(401, refused.statusCode(), "a revoked key is refused at once: " + refused.body());
            assertEquals(
                    1,
                    ScorecastCli.run(
                            List.of("keys", "revoke", keyId),
                            env,
                            System.out,
                            new PrintStream(new ByteArrayOutputStream())));
        }
        try (ScorecastServer again =
                ScorecastServer.start(ServerConfig.from(env).withPort(0))) {
            assertTrue(again.developmentKey().isEmpty(), "the development key is made and shown only once");
        }
    }

    /**
     * The operator's webhook commands on a running server's database: an endpoint registered by the
     * command, a test event it queues and the server delivers, its deliveries listed, the endpoint deleted.
     */
    @Test
    void webhooksRegisteredByTheCommandAreDeliveredByARunningServer() throws Exception {
        Map<String, String> env = Map.of(
                "SCORECAST_DATA",
                data.toString(),
                "SCORECAST_HOST",
                "127.0.0.1",
                "SCORECAST_LIVE_WARMUP_SECONDS",
                "0",
                "SCORECAST_MIN_FREE_BYTES",
                "0",
                "SCORECAST_WEBHOOKS_ALLOW_LOCAL",
                "true",
                "SCORECAST_WEBHOOKS_POLL_MS",
                "50");
        try (var receiver = Receiver.start().answer(200);
                ScorecastServer server =
                        ScorecastServer.start(ServerConfig.from(env).withPort(0))) {
            var out = new ByteArrayOutputStream();
            var printed = new PrintStream(out, true, StandardCharsets.UTF_8);
            assertEquals(
                    0,
                    ScorecastCli.run(
                            List.of(
                                    "webhooks",
                                    "create",
                                    "--user",
                                    "erin",
                                    "--url",
                                    receiver.url("/erin"),
                                    "--events",
                                    "execution.finished,stream.ended"),
                            env,
                            printed,
                            System.err));
            String created = out.toString(StandardCharsets.UTF_8);
            String id = created.replaceAll("(?s).*webhook (whk_[a-z2-7]+) for erin.*", "$1");
            String secret = created.replaceAll("(?s).*(whsec_[a-z2-7]{32}).*", "$1");
            assertTrue(id.startsWith("whk_") && secret.startsWith("whsec_"), created);
            assertTrue(created.contains("events: execution.finished,stream.ended"), created);

            out.reset();
            assertEquals(0, ScorecastCli.run(List.of("webhooks", "test", id), env, printed, System.err));
            var got = receiver.next(Duration.ofSeconds(20));
            assertTrue(WebhookSigner.verify(
                    secret, got.header("Scorecast-Signature"), got.body(), Instant.now(), Duration.ofMinutes(5)));
            long deadline = System.nanoTime() + 20_000_000_000L;
            String deliveries;
            do {
                out.reset();
                assertEquals(0, ScorecastCli.run(List.of("webhooks", "deliveries", id), env, printed, System.err));
                deliveries = out.toString(StandardCharsets.UTF_8);
                Thread.sleep(20);
            } while (!deliveries.contains("delivered") && System.nanoTime() < deadline);
            assertTrue(
                    deliveries.contains("webhook.test")
                            && deliveries.contains("delivered")
                            && deliveries.contains("200 "),
                    deliveries);

            out.reset();
            assertEquals(0, ScorecastCli.run(List.of("webhooks", "list", "--user", "erin"), env, printed, System.err));
            assertTrue(out.toString(StandardCharsets.UTF_8).contains(id), out::toString);
            assertFalse(out.toString(StandardCharsets.UTF_8).contains(secret), "the secret is never listed");

            var err = new ByteArrayOutputStream();
            var errors = new PrintStream(err, true, StandardCharsets.UTF_8);
            assertEquals(
                    2,
                    ScorecastCli.run(
                            List.of("webhooks", "create", "--user", "erin", "--url", "ftp://x/"),
                            env,
                            System.out,
                            errors));
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("https"), err::toString);
            assertEquals(
                    2,
                    ScorecastCli.run(
                            List.of(
                                    "webhooks",
                                    "create",
                                    "--user",
                                    "erin",
                                    "--url",
                                    receiver.url("/"),
                                    "--events",
                                    "nope"),
                            env,
                            System.out,
                            errors));
            assertEquals(2, ScorecastCli.run(List.of("webhooks", "frobnicate"), env, System.out, errors));
            assertEquals(0, ScorecastCli.run(List.of("webhooks", "delete", id), env, printed, System.err));
            assertEquals(1, ScorecastCli.run(List.of("webhooks", "delete", id), env, printed, errors));
            assertEquals(1, ScorecastCli.run(List.of("webhooks", "test", id), env, printed, errors));
        }
    }

    @Test
    void badArgumentsAndBadNamesAreRefusedWithUsage() throws Exception {
        Map<String, String> env = Map.of("SCORECAST_DATA", data.toString());
        var err = new ByteArrayOutputStream();
        var errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertEquals(2, ScorecastCli.run(List.of("keys", "create"), env, System.out, errStream));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("usage"));
        assertEquals(2, ScorecastCli.run(List.of("keys", "create", "--user", "bad name!"), env, System.out, errStream));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("user name"));
    }

    @Test
    void helpPrintsUsageAndSucceedsWhileUnknownArgumentsFailWithIt() throws Exception {
        Map<String, String> env =
                Map.of("SCORECAST_DATA", data.resolve("never-made").toString());
        for (List<String> asked : List.of(List.of("--help"), List.of("-h"), List.of("help"))) {
            Captured c = run(asked, env);
            assertEquals(0, c.status(), asked.toString());
            assertTrue(c.out().contains("scorecast serve") && c.out().contains("scorecast score"), c.out());
            assertEquals("", c.err());
        }
        for (List<String> asked :
                List.of(List.of("help", "score"), List.of("score", "--help"), List.of("help", "analyze"))) {
            Captured c = run(asked, env);
            assertEquals(0, c.status(), asked.toString());
            assertTrue(
                    c.out().startsWith("usage: scorecast " + (asked.contains("analyze") ? "analyse" : "score")),
                    c.out());
            assertFalse(c.out().contains("scorecast serve"), "only the one command's usage: " + c.out());
        }
        for (List<String> wrong : List.<List<String>>of(
                List.of("--frobnicate"), List.of("serve", "now"), List.of("help", "nothing"), List.of())) {
            Captured c = run(wrong, env);
            assertEquals(2, c.status(), wrong.toString());
            assertTrue(c.err().contains("usage:"), c.err());
            assertEquals("", c.out());
        }
        assertFalse(Files.exists(data.resolve("never-made")), "usage alone writes no data directory");
    }

    private record Captured(int status, String out, String err) {}

    private static Captured run(List<String> args, Map<String, String> env) throws InterruptedException {
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();
        int status = ScorecastCli.run(
                args,
                env,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Captured(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
