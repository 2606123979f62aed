package dev.scorecast.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        Map<String, String> env = Map.of("SCORECAST_DATA", data.toString(), "SCORECAST_HOST", "127.0.0.1", "SCORECAST_LIVE_WARMUP_SECONDS", "0");
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
}
