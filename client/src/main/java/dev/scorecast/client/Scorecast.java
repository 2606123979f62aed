package dev.scorecast.client;

import dev.scorecast.client.api.PlayerApi;
import dev.scorecast.client.api.SyncAApi;
import dev.scorecast.client.api.WebhooksApi;
import dev.scorecast.client.model.SyncAComplete200Response;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The Scorecast client: the generated API classes (from docs/openapi.json) on one connection that
 * carries the API key, plus what generators do badly, written by hand: {@link #uploadVideo} (chunked,
 * parallel, checksummed, resumable) and {@link WebhookSignature} (checking a webhook's signature).
 *
 * <pre>{@code
 * Scorecast scorecast = Scorecast.connect("http://localhost:8080", System.getenv("SCORECAST_KEY"));
 * var video = scorecast.uploadVideo(Path.of("clip.mp4"));
 * var analysis = scorecast.sync().syncAAnalyse(new SyncAAnalyseRequest().videoId(video.getVideoId()));
 * }</pre>
 */
public final class Scorecast {
    private final ApiClient client;

    private Scorecast(ApiClient client) {
        this.client = client;
    }

    /** A client of the server at {@code baseUrl} (e.g. {@code http://localhost:8080}) acting with {@code apiKey}. */
    public static Scorecast connect(String baseUrl, String apiKey) {
        ApiClient client = new ApiClient(
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)),
                ApiClient.createDefaultObjectMapper(),
                baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl);
        client.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + apiKey));
        client.setReadTimeout(Duration.ofMinutes(5));
        return new Scorecast(client);
    }

    /** The generated client underneath, for anything the typed APIs below do not cover. */
    public ApiClient apiClient() {
        return client;
    }

    /** Variant A: uploads, analysis, plans, executions, status, events. */
    public SyncAApi sync() {
        return new SyncAApi(client);
    }

    public WebhooksApi webhooks() {
        return new WebhooksApi(client);
    }

    public PlayerApi player() {
        return new PlayerApi(client);
    }

    /** Uploads {@code file} in one call: see {@link VideoUpload}. Returns what complete_video_upload answered. */
    public SyncAComplete200Response uploadVideo(Path file) throws IOException, ApiException {
        return new VideoUpload(this, VideoUpload.DEFAULT_PARALLEL).upload(file, null);
    }

    /** Resumes the upload {@code uploadId} of {@code file}: only the chunks the server lacks are sent. */
    public SyncAComplete200Response resumeUpload(Path file, String uploadId) throws IOException, ApiException {
        return new VideoUpload(this, VideoUpload.DEFAULT_PARALLEL).upload(file, uploadId);
    }
}
