package dev.scorecast.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.server.ScorecastServer;
import dev.scorecast.server.config.ServerConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScorecastCliTest {
    @TempDir
    Path data;

    @Test
    void keyCreatedByTheCommandWorksAtOnceOnARunningServer() throws Exception {
        Map<String, String> env = Map.of("SCORECAST_DATA", data.toString(), "SCORECAST_HOST", "127.0.0.1", "SCORECAST_LIVE_WARMUP_SECONDS", "0",
                "SCORECAST_MIN_FREE_BYTES", "0");
        try (ScorecastServer server = ScorecastServer.start(ServerConfig.from(env).withPort(0))) {
            assertTrue(server.developmentKey().isPresent(), "a first start with no keys makes a development key");
            var out = new ByteArrayOutputStream();
            int status = ScorecastCli.run(List.of("keys", "create", "--user", "erin"), env,
                    new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
            assertEquals(0, status);
            String key = out.toString(StandardCharsets.UTF_8).strip();
            assertTrue(key.matches("sc_[a-z2-7]{12}_[a-z2-7]{32}"), key);

            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + server.port() + "/sync_upload_init"))
                    .header("Authorization", "Bearer " + key)
                    .POST(HttpRequest.BodyPublishers.ofString("{\"payload\":{\"filename\":\"a.mp4\"}}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());

            var listed = new ByteArrayOutputStream();
            assertEquals(0, ScorecastCli.run(List.of("keys", "list", "--user", "erin"), env,
                    new PrintStream(listed, true, StandardCharsets.UTF_8), System.err));
            String keyId = key.substring(3, 15);
            assertTrue(listed.toString(StandardCharsets.UTF_8).contains(keyId), listed::toString);
            assertFalse(listed.toString(StandardCharsets.UTF_8).contains(key.substring(16)), "the secret is never printed");
            assertEquals(0, ScorecastCli.run(List.of("keys", "revoke", keyId), env, System.out, System.err));
            HttpResponse<String> refused = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + server.port() + "/sync_upload_init"))
                    .header("Authorization", "Bearer " + key)
                    .POST(HttpRequest.BodyPublishers.ofString("{\"payload\":{\"filename\":\"a.mp4\"}}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(401, refused.statusCode(), "a revoked key is refused at once: " + refused.body());
            assertEquals(1, ScorecastCli.run(List.of("keys", "revoke", keyId), env, System.out, new PrintStream(new ByteArrayOutputStream())));
        }
        try (ScorecastServer again = ScorecastServer.start(ServerConfig.from(env).withPort(0))) {
            assertTrue(again.developmentKey().isEmpty(), "the development key is made and shown only once");
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
        Map<String, String> env = Map.of("SCORECAST_DATA", data.resolve("never-made").toString());
        for (List<String> asked : List.of(List.of("--help"), List.of("-h"), List.of("help"))) {
            Captured c = run(asked, env);
            assertEquals(0, c.status(), asked.toString());
            assertTrue(c.out().contains("scorecast serve") && c.out().contains("scorecast score"), c.out());
            assertEquals("", c.err());
        }
        for (List<String> asked : List.of(List.of("help", "score"), List.of("score", "--help"), List.of("help", "analyze"))) {
            Captured c = run(asked, env);
            assertEquals(0, c.status(), asked.toString());
            assertTrue(c.out().startsWith("usage: scorecast " + (asked.contains("analyze") ? "analyse" : "score")), c.out());
            assertFalse(c.out().contains("scorecast serve"), "only the one command's usage: " + c.out());
        }
        for (List<String> wrong : List.<List<String>>of(List.of("--frobnicate"), List.of("serve", "now"), List.of("help", "nothing"), List.of())) {
            Captured c = run(wrong, env);
            assertEquals(2, c.status(), wrong.toString());
            assertTrue(c.err().contains("usage:"), c.err());
            assertEquals("", c.out());
        }
        assertFalse(java.nio.file.Files.exists(data.resolve("never-made")), "usage alone writes no data directory");
    }

    private record Captured(int status, String out, String err) {}

    private static Captured run(List<String> args, Map<String, String> env) throws InterruptedException {
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();
        int status = ScorecastCli.run(args, env, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Captured(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
