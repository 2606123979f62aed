package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.scorecast.engine.error.Busy;
import dev.scorecast.server.downloads.DownloadSlots;
import dev.scorecast.server.storage.S3Proxy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28, downloads through a node starve its store: on S3 each proxied download held one of the
 * store client's 64 pooled connections for the whole transfer, so 64 slow downloads of one link made
 * every job on the node fail. On S3 a link now answers 302 to a presigned URL of the store by
 * default; proxying (a setting) reads on a client of its own and is capped per file and per address.
 */
class DownloadsTest {
    private static final String BUCKET = "downloads";
    /** Answers held to /openapi.json (CheckedHttpClient); the store's answer to its own link is not on its paths. */
    private static final HttpClient NO_REDIRECTS = CheckedHttpClient.of(
            HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build());

    @TempDir
    Path dir;

    // Tagged slow (bin/test --all): an S3 store (S3Proxy) started for one redirect, 9 s; S3BlobStoreTest stays fast.
    @Test
    @Tag("slow")
    void onS3ALinkRedirectsToTheStoreByDefault() throws Exception {
        try (S3Proxy store = S3Proxy.start(dir.resolve("s3"), BUCKET)) {
            var env = new HashMap<>(store.env(BUCKET, "t"));
            try (TestServer server = TestServer.start(dir.resolve("data"), env)) {
                String url = executed(server.alice());
                HttpResponse<byte[]> redirect = NO_REDIRECTS.send(
                        HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofByteArray());
                assertEquals(302, redirect.statusCode());
                String location = redirect.headers().firstValue("Location").orElseThrow();
                assertTrue(location.startsWith(store.endpoint()), location);
                byte[] video = NO_REDIRECTS
                        .send(
                                HttpRequest.newBuilder(URI.create(location)).build(),
                                HttpResponse.BodyHandlers.ofByteArray())
                        .body();

                // SCORECAST_PUBLIC_DOWNLOADS=proxied keeps streaming through the node, the same bytes.
                server.env.put("SCORECAST_PUBLIC_DOWNLOADS", "proxied");
                server.restart();
                HttpResponse<byte[]> proxied = NO_REDIRECTS.send(
                        HttpRequest.newBuilder(URI.create(url.replaceFirst(":\\d+/", ":" + server.port() + "/")))
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                assertEquals(200, proxied.statusCode());
                assertArrayEquals(video, proxied.body());
                System.out.printf(
                        "downloads: on S3 the link answered 302 to the store; proxied on request, %d bytes the same%n",
                        video.length);
            }
        }
    }

    @Test
    void downloadsStreamingAtOnceAreCappedPerFileAndPerAddress() {
        var slots = new DownloadSlots(4, 8);
        var held = new ArrayList<DownloadSlots.Slot>();
        for (int i = 0; i < 4; i++) {
            held.add(slots.enter("exe_a/video.mp4", "10.0.0.1"));
        }
        assertThrows(Busy.class, () -> slots.enter("exe_a/video.mp4", "10.0.0.2"), "a fifth of one file");
        for (int i = 0; i < 4; i++) {
            held.add(slots.enter("exe_b/file" + i, "10.0.0.1"));
        }
        assertThrows(Busy.class, () -> slots.enter("exe_c/video.mp4", "10.0.0.1"), "a ninth to one address");
        held.add(slots.enter("exe_c/video.mp4", "10.0.0.3"));
        held.removeFirst().close();
        held.add(slots.enter("exe_a/video.mp4", "10.0.0.2"));
        held.forEach(DownloadSlots.Slot::close);
        assertEquals(0, slots.open(), "every place is free again");
    }

    /** Uploads, analyses, plans and runs the silent test video; answers its video link. */
    private static String executed(Api api) throws Exception {
        String taskId =
                Uploads.uploadB(api, Videos.silentMp4(), 1).body().get("taskid").asText();
        Api.Response analysed = api.postJson("/sync_video_analysis", Map.of("taskid", taskId));
        assertEquals(200, analysed.status(), analysed::toString);
        JsonNode plan = api.postMultipart(
                        "/sync_generate",
                        Map.of(
                                "analysis",
                                analysed.body().get("analysis").toString(),
                                "payload",
                                Api.write(Map.of("taskid", taskId))),
                        null,
                        null)
                .body()
                .get("plan");
        Api.Response executed = api.postMultipart(
                "/sync_execute",
                Map.of("plan", plan.toString(), "payload", Api.write(Map.of("taskid", taskId))),
                null,
                null);
        JsonNode done = ScoringFlowTest.awaitExecution(
                api,
                "/sync_status",
                Map.of("execid", executed.body().get("execid").asText()));
        assertEquals("finished", done.get("status").asText(), done::toString);
        return done.get("url").asText();
    }
}
