package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
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

/**
 * The checker every test's answers go through (OpenApiContract) rejects what the document does not
 * allow, with a message that names the call and what is wrong: a field of the wrong type, a required
 * field missing, a status the operation does not list, a media type it does not list, a body that is
 * not JSON. Each wrong answer is a real server's answer changed in one respect, and the unchanged
 * answer passes, so the checker is shown to tell the two apart rather than to reject everything. The
 * clients the tests use (Api, CheckedHttpClient, RawAnswer) are shown to fail on such an answer from a
 * server on loopback that gives it.
 */
class OpenApiContractTest {
    private static final String INITIALIZE = "/sync/initialize_video_upload";
    private static final OpenApiContract CONTRACT = OpenApiContract.published();

    @TempDir
    Path data;

    @Test
    void aRealAnswerPassesAndEachWrongOneIsNamed() throws Exception {
        try (TestServer server = TestServer.start(data)) {
            Api.Response real = server.alice()
                    .postJson(INITIALIZE, Map.of("file_name", "a.mp4", "file_size", 1000, "file_type", "video/mp4"));
            assertEquals(200, real.status(), real::toString);
            String type = real.header("Content-Type");
            assertEquals(
                    List.of(),
                    CONTRACT.violations(
                            "POST", INITIALIZE, 200, type, real.raw().body()));

            ObjectNode wrongType = real.body().deepCopy();
            wrongType.put("chunk_size", wrongType.get("chunk_size").asText()); // a number sent as a string
            List<String> typeViolations = CONTRACT.violations("POST", INITIALIZE, 200, type, wrongType.toString());
            assertEquals(
                    List.of("POST " + INITIALIZE + " -> 200: /chunk_size: string found, integer expected"),
                    typeViolations);

            ObjectNode missing = real.body().deepCopy();
            missing.remove("upload_id");
            List<String> missingViolations = CONTRACT.violations("POST", INITIALIZE, 200, type, missing.toString());
            assertEquals(1, missingViolations.size(), missingViolations::toString);
            assertTrue(
                    missingViolations.getFirst().startsWith("POST " + INITIALIZE + " -> 200: the body: "),
                    missingViolations::toString);
            assertTrue(
                    missingViolations.getFirst().contains("required property 'upload_id'"),
                    missingViolations::toString);

            List<String> status = CONTRACT.violations(
                    "POST", INITIALIZE, 418, type, real.raw().body());
            assertEquals(
                    List.of("POST " + INITIALIZE + " -> 418: the document lists no such status for this operation"
                            + " (it lists 200, 400, 401, 413, 415, 429, 507, 408, 503)"),
                    status);

            List<String> media = CONTRACT.violations(
                    "POST", INITIALIZE, 200, "text/html", real.raw().body());
            assertEquals(
                    List.of("POST " + INITIALIZE + " -> 200: answered text/html, the document lists application/json"),
                    media);

            List<String> notJson = CONTRACT.violations("POST", INITIALIZE, 200, type, "{\"upload_id\": ");
            assertEquals(1, notJson.size(), notJson::toString);
            assertTrue(notJson.getFirst().contains("the body is not JSON"), notJson::toString);

            // An error answer is held to the error envelope the same way.
            Api.Response refused = server.api(null).postJson(INITIALIZE, Map.of("file_name", "a.mp4"));
            assertEquals(401, refused.status(), refused::toString);
            ObjectNode noMessage = refused.body().deepCopy();
            noMessage.remove("message");
            List<String> envelope = CONTRACT.violations("POST", INITIALIZE, 401, type, noMessage.toString());
            assertEquals(1, envelope.size(), envelope::toString);
            assertTrue(envelope.getFirst().contains("message"), envelope::toString);
        }
    }

    /**
     * A server on loopback that answers /healthz with {@code "status": 5}: each client the tests use
     * fails on it, naming the call and the field, where a check that was not wired in would pass.
     */
    @Test
    void theTestsClientsFailOnAWrongAnswer() throws Exception {
        HttpServer liar = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        liar.createContext("/healthz", exchange -> {
            byte[] body = "{\"status\": 5}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (var out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        liar.start();
        try {
            String base = "http://127.0.0.1:" + liar.getAddress().getPort();
            AssertionError fromApi = assertThrows(AssertionError.class, () -> new Api(base, null).get("/healthz"));
            assertTrue(
                    fromApi.getMessage().contains("GET /healthz -> 200: /status: integer found, string expected"),
                    fromApi::getMessage);

            try (HttpClient client = CheckedHttpClient.newClient()) {
                AssertionError fromClient = assertThrows(
                        AssertionError.class,
                        () -> client.send(
                                HttpRequest.newBuilder(URI.create(base + "/healthz"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString()));
                assertTrue(
                        fromClient.getMessage().contains("GET /healthz -> 200: /status: integer found"),
                        fromClient::getMessage);
            }

            try (var socket = new Socket("127.0.0.1", liar.getAddress().getPort())) {
                socket.getOutputStream()
                        .write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                RawAnswer raw = RawAnswer.read(socket.getInputStream());
                AssertionError fromSocket = assertThrows(AssertionError.class, () -> raw.checked("GET", "/healthz"));
                assertTrue(
                        fromSocket.getMessage().contains("GET /healthz -> 200: /status: integer found"),
                        fromSocket::getMessage);
            }
        } finally {
            liar.stop(0);
        }
    }
}
