package dev.scorecast.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.TooLarge;
import dev.scorecast.server.analysis.AnalysisService;
import dev.scorecast.server.analysis.AnalysisService.AnalysisState;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.upload.ChunkReceipt;
import dev.scorecast.server.upload.CompletedUpload;
import dev.scorecast.server.upload.IncomingChunk;
import dev.scorecast.server.upload.Upload;
import dev.scorecast.server.upload.UploadService;
import dev.scorecast.server.upload.Variant;
import dev.scorecast.server.upload.Video;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.Part;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/** Sync variant B: {@code /sync_...}, a task id through every step and multipart chunks. */
public final class SyncBApi {
    private static final String JETTY_MULTIPART_CONFIG = "org.eclipse.jetty.multipartConfig";

    private final UploadService uploads;
    private final AnalysisService analyses;
    private final JobViews views;
    private final Duration analysisWait;
    private final Requests requests;
    private final MultipartConfigElement multipart;
    private final long maxChunkBytes;

    public SyncBApi(UploadService uploads, AnalysisService analyses, Duration analysisWait, Requests requests, Path multipartTemp,
                    long maxChunkBytes) {
        this.uploads = uploads;
        this.analyses = analyses;
        this.views = new JobViews(analyses, requests.mapper());
        this.analysisWait = analysisWait;
        this.requests = requests;
        this.maxChunkBytes = maxChunkBytes;
        // Parts above 1 MiB spill to disk while parsing; the caps refuse an oversized chunk as it arrives.
        this.multipart = new MultipartConfigElement(multipartTemp.toString(), maxChunkBytes,
                maxChunkBytes + requests.maxJsonBytes() + 65_536, 1 << 20);
    }

    public void register(RoutesConfig routes) {
        routes.post("/sync_upload_init", this::initialize);
        routes.post("/sync_upload_chunk", this::uploadChunk);
        routes.post("/sync_upload_complete", this::complete);
        routes.post("/sync_video_analysis", this::analyse);
    }

    /**
     * Variant B answers with the analysis itself, so the call waits for the analysis job. A client
     * that gives up early loses nothing: the job goes on and the next call returns its result.
     */
    private void analyse(Context ctx) throws InterruptedException {
        JsonFields fields = requests.body(ctx);
        String taskId = fields.requiredString("taskid");
        fields.check();
        Principal owner = Authenticator.principal(ctx);
        AnalysisState state = analyses.await(owner, analyses.start(owner, uploads.completedVideo(owner, Variant.B, taskId)), analysisWait);
        switch (state.job().status()) {
            case FINISHED -> ctx.json(new Analysed(taskId, state.job().message(), views.analysisOf(state)));
            case ERROR -> throw JobViews.failure(state.job());
            case PENDING, PROCESSING -> ctx.status(202).json(new StillAnalysing(taskId, state.job().status().wire(), state.job().progress(),
                    "The analysis is still running (" + Math.round(state.job().progress() * 100)
                            + " % done); call /sync_video_analysis again to get it.", null));
        }
    }

    private void initialize(Context ctx) {
        JsonFields body = requests.body(ctx);
        JsonFields payload = body.requiredObject("payload");
        body.check();
        String fileName = payload.requiredString("filename");
        Requests.checkFileName(payload, "filename", fileName);
        payload.check();
        Upload upload = uploads.initialize(Authenticator.principal(ctx), Variant.B, fileName, null, null);
        ctx.json(new Initialized(upload.id(), "Upload task created; send the chunks to /sync_upload_chunk with this taskid."));
    }

    private void uploadChunk(Context ctx) {
        String contentType = ctx.contentType();
        if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("multipart/form-data")) {
            throw new InvalidParameter("Content-Type", "Send multipart/form-data with two parts: file (the chunk's bytes) and payload (JSON).");
        }
        ctx.req().setAttribute(JETTY_MULTIPART_CONFIG, multipart);
        Part payloadPart = part(ctx, "payload", "payload (a JSON object with taskid, index and total)");
        Part filePart = part(ctx, "file", "file (the chunk's bytes)");
        JsonFields payload;
        try (InputStream in = payloadPart.getInputStream()) {
            payload = JsonFields.parse(requests.mapper(), in, requests.maxJsonBytes(), "payload");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String taskId = payload.requiredString("taskid");
        Integer index = payload.requiredInt("index");
        Integer total = payload.requiredInt("total");
        String crc32c = payload.optionalString("crc32c");
        String sha256 = payload.optionalString("sha256");
        payload.check();
        String expectedCrc32c = Requests.optionalCrc32c(crc32c, "crc32c");
        String expectedSha256 = Requests.optionalSha256(sha256, "sha256");
        ChunkReceipt receipt;
        try (InputStream in = filePart.getInputStream()) {
            receipt = uploads.putChunk(Authenticator.principal(ctx), Variant.B, taskId,
                    new IncomingChunk(index, total, expectedCrc32c, expectedSha256, filePart.getSize(), in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            deleteQuietly(filePart);
        }
        ctx.json(new ChunkStored(receipt.uploadId(), "active", receipt.chunkId(), receipt.index(),
                "Chunk " + receipt.index() + " of " + total + " stored.", receipt.size(), receipt.crc32c(), receipt.sha256()));
    }

    private void complete(Context ctx) {
        JsonFields fields = requests.body(ctx);
        String taskId = fields.requiredString("taskid");
        Integer total = fields.requiredInt("total");
        if (total != null && total < 1) {
            fields.problem("total", "total must be the number of chunks sent, at least 1.");
        }
        fields.check();
        CompletedUpload done = uploads.complete(Authenticator.principal(ctx), Variant.B, taskId, total);
        Video v = done.video();
        ctx.json(new Completed(done.upload().id(), "complete",
                "Video assembled and its audio extracted; next, call /sync_video_analysis with this taskid.",
                new VideoSummary(v.duration(), v.width(), v.height(), v.fps(), v.hasAudio(), v.container(), v.videoCodec(),
                        v.rotation(), v.frames(), v.size(), v.crc32c())));
    }

    /** Jetty reports a part or request above the caps as a generic "bad multipart" with the reason inside. */
    private static boolean exceedsCap(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
            if (message.contains("max") && (message.contains("size") || message.contains("exceed") || message.contains("length"))) {
                return true;
            }
        }
        return false;
    }

    private Part part(Context ctx, String name, String description) {
        Part part;
        try {
            part = ctx.req().getPart(name);
        } catch (ServletException | IOException | RuntimeException e) {
            if (exceedsCap(e)) {
                throw new TooLarge("file", "The chunk is larger than the limit of " + maxChunkBytes
                        + " bytes; split the file into smaller chunks.");
            }
            throw new InvalidParameter("Content-Type", "The multipart body could not be read (" + e.getMessage()
                    + "); send multipart/form-data with parts file and payload.");
        }
        if (part == null) {
            throw new InvalidParameter(name, "The multipart part " + description + " is missing.");
        }
        return part;
    }

    private static void deleteQuietly(Part part) {
        try {
            part.delete();
        } catch (IOException ignored) {
            // Jetty removes its temporary part files when the request ends as well.
        }
    }

    record Initialized(String taskid, String message) {}

    record Analysed(String taskid, String message, JsonNode analysis) {}

    record StillAnalysing(String taskid, String status, double progress, String message, JsonNode analysis) {}

    record ChunkStored(String taskid, String state, String chunkid, int index, String message, long size, String crc32c, String sha256) {}

    record VideoSummary(double duration, int width, int height, double fps, boolean hasAudio, String container,
                        String videoCodec, int rotation, long frames, long size, String crc32c) {}

    record Completed(String taskid, String state, String message, VideoSummary video) {}
}
