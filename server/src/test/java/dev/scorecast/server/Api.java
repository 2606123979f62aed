package dev.scorecast.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

/**
 * A plain HTTP client for tests: what a user's script would send, nothing more. Every answer is
 * checked against /openapi.json on the way (OpenApiContract): status, media type and JSON body.
 */
final class Api {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String base;
    private final String key;

    Api(String base, String key) {
        this.base = base;
        this.key = key;
    }

    record Response(int status, JsonNode body, HttpResponse<String> raw) {
        String header(String name) {
            return raw.headers().firstValue(name).orElse(null);
        }

        @Override
        public String toString() {
            return status + " " + raw.body();
        }
    }

    Response postJson(String path, Object body) {
        String text = body instanceof String s ? s : write(body);
        return send(request(path)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(text)));
    }

    Response postBytes(String path, byte[] body, Map<String, String> headers) {
        HttpRequest.Builder builder = request(path).header("Content-Type", "application/octet-stream");
        headers.forEach(builder::header);
        return send(expectContinue(builder, body.length).POST(HttpRequest.BodyPublishers.ofByteArray(body)));
    }

    Response get(String path) {
        return send(request(path).GET());
    }

    Response delete(String path) {
        return send(request(path).DELETE());
    }

    /** The body of a GET as bytes (images, audio); fails on anything but 200. */
    byte[] getBytes(String path) {
        try {
            HttpResponse<byte[]> response = OpenApiContract.check(
                    CLIENT.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofByteArray()));
            if (response.statusCode() != 200) {
                throw new AssertionError("GET " + path + " answered " + response.statusCode());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** multipart/form-data with a JSON part and a file part, as variant B's clients send it. */
    Response postMultipart(String path, Map<String, String> jsonParts, String fileField, byte[] file) {
        String boundary = "scorecast-" + UUID.randomUUID();
        var out = new ByteArrayOutputStream();
        jsonParts.forEach((name, json) ->
                writePart(out, boundary, name, null, "application/json", json.getBytes(StandardCharsets.UTF_8)));
        if (fileField != null) {
            writePart(out, boundary, fileField, "chunk.bin", "application/octet-stream", file);
        }
        out.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII));
        HttpRequest.Builder builder = request(path).header("Content-Type", "multipart/form-data; boundary=" + boundary);
        return send(
                expectContinue(builder, out.size()).POST(HttpRequest.BodyPublishers.ofByteArray(out.toByteArray())));
    }

    private static void writePart(
            ByteArrayOutputStream out, String boundary, String name, String fileName, String type, byte[] content) {
        String head = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name + "\""
                + (fileName == null ? "" : "; filename=\"" + fileName + "\"") + "\r\nContent-Type: " + type
                + "\r\n\r\n";
        out.writeBytes(head.getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(content);
        out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * Large bodies ask first, as curl does past 1 MiB: a server refusing the declared length answers
     * before the body is sent. Without it the client may still be writing when the server closes, and
     * the reset can swallow the 413 ("header parser received no bytes").
     */
    private static HttpRequest.Builder expectContinue(HttpRequest.Builder builder, long bodyBytes) {
        return builder.expectContinue(bodyBytes >= 64 * 1024);
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder builder =
                HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
        if (key != null) {
            builder.header("Authorization", "Bearer " + key);
        }
        return builder;
    }

    private static Response send(HttpRequest.Builder builder) {
        try {
            HttpRequest request = builder.build();
            HttpResponse<String> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
            JsonNode body = null;
            String text = response.body();
            // Every answer a test receives is held to the published document (OpenApiContract).
            OpenApiContract.check(response);
            if (text != null && !text.isEmpty() && text.strip().startsWith("{")) {
                body = JSON.readTree(text);
            }
            return new Response(response.statusCode(), body, response);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
