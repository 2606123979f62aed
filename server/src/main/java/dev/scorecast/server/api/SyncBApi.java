package dev.scorecast.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.NotFound;
import dev.scorecast.engine.error.TooLarge;
import dev.scorecast.engine.error.WrongState;
import dev.scorecast.engine.plan.GenerationOptions;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.style.GenreCatalog;
import dev.scorecast.server.analysis.AnalysisService;
import dev.scorecast.server.analysis.AnalysisService.AnalysisState;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.execution.ExecutionService;
import dev.scorecast.server.execution.ExecutionService.ExecutionState;
import dev.scorecast.server.execution.PlanService;
import dev.scorecast.server.execution.StoredPlan;
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
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Sync variant B: {@code /sync_...}, a task id through every step and multipart chunks. */
public final class SyncBApi {
    private static final String JETTY_MULTIPART_CONFIG = "org.eclipse.jetty.multipartConfig";
    /**
     * Most parts one multipart body may have: every call takes two, and Jetty's default (1,000) let
     * one request make a thousand part objects and temporary files. Jetty takes it from the context's
     * form-key limit, so ScorecastServer sets that.
     */
    public static final int MAX_PARTS = 8;
    /**
     * Largest part kept in memory while parsing; larger ones spill to a file in the data directory.
     * With {@link #MAX_PARTS} it bounds a multipart request's memory to 512 KiB whatever it sends.
     */
    static final int MAX_MEMORY_PART_BYTES = 64 << 10;
    /** Room for the part headers and boundaries around the file and payload parts. */
    private static final int MULTIPART_OVERHEAD_BYTES = 65_536;

    private final UploadService uploads;
    private final AnalysisService analyses;
    private final PlanService plans;
    private final ExecutionService executions;
    private final Scoring scoring;
    private final JobViews views;
    private final Duration analysisWait;
    private final Requests requests;
    private final MultipartConfigElement multipart;
    private final long maxChunkBytes;

    public SyncBApi(
            UploadService uploads,
            AnalysisService analyses,
            PlanService plans,
            ExecutionService executions,
            GenreCatalog genres,
            Duration analysisWait,
            Requests requests,
            Path multipartTemp,
            long maxChunkBytes) {
        this.uploads = uploads;
        this.analyses = analyses;
        this.plans = plans;
        this.executions = executions;
        this.scoring = new Scoring(genres, executions);
        this.views = new JobViews(analyses, requests.mapper());
        this.analysisWait = analysisWait;
        this.requests = requests;
        this.maxChunkBytes = maxChunkBytes;
        // Parts above 64 KiB spill to disk while parsing; the caps refuse an oversized chunk as it arrives.
        this.multipart = new MultipartConfigElement(
                multipartTemp.toString(),
                maxChunkBytes,
                maxBodyBytes(maxChunkBytes, requests.maxJsonBytes()),
                MAX_MEMORY_PART_BYTES);
    }

    /** The largest multipart body any of these calls accepts: a chunk, a JSON part and their framing. */
    public static long maxBodyBytes(long maxChunkBytes, long maxJsonBytes) {
        return maxChunkBytes + maxJsonBytes + MULTIPART_OVERHEAD_BYTES;
    }

    /** The calls that take multipart bodies (each capped at {@link #maxBodyBytes}). */
    public static final List<String> MULTIPART_PATHS = List.of("/sync_upload_chunk", "/sync_generate", "/sync_execute");

    public void register(RoutesConfig routes) {
        routes.post("/sync_upload_init", this::initialize);
        routes.post("/sync_upload_chunk", this::uploadChunk);
        routes.post("/sync_upload_complete", this::complete);
        routes.post("/sync_video_analysis", this::analyse);
        routes.post("/sync_generate", this::generate);
        routes.post("/sync_execute", this::execute);
        routes.post("/sync_status", this::status);
    }

    /** Multipart: {@code analysis} (the analysis JSON, as returned or edited) and {@code payload} (taskid and options). */
    private void generate(Context ctx) {
        requireMultipart(ctx, "analysis (the analysis JSON file) and payload (JSON with taskid and options)");
        byte[] analysisJson =
                readPart(part(ctx, "analysis", "analysis (the JSON file from /sync_video_analysis)"), "analysis");
        JsonFields payload = payload(ctx);
        String taskId = payload.requiredString("taskid");
        GenerationOptions options = scoring.options(payload);
        var markers = scoring.markers(payload);
        payload.check();
        // The editor's marker file (EDL, FCPXML or Premiere's CSV), optional, beside the analysis.
        Part markersPart =
                optionalPart(ctx, "markers_file", "markers_file (an EDL, FCPXML or Premiere Pro marker CSV)");
        byte[] markersFile = markersPart == null ? null : readPart(markersPart, "markers_file");
        Principal owner = Authenticator.principal(ctx);
        Video video = uploads.completedVideo(owner, Variant.B, taskId);
        StoredPlan plan = plans.generate(owner, video, analysisJson, options, markers, markersFile);
        ctx.json(new Generated(
                taskId,
                plan.id(),
                scoring.planNode(plan.plan(), requests.mapper()),
                "Plan generated; edit it if you like, then send it to /sync_execute with this taskid."));
    }

    /** Multipart: {@code plan} (the plan JSON, as generated or edited) and {@code payload} (taskid). */
    private void execute(Context ctx) {
        requireMultipart(ctx, "plan (the plan JSON file) and payload (JSON with taskid)");
        byte[] planJson =
                readPart(part(ctx, "plan", "plan (the JSON file from /sync_generate, edited or not)"), "plan");
        JsonFields payload = payload(ctx);
        String taskId = payload.requiredString("taskid");
        payload.check();
        Principal owner = Authenticator.principal(ctx);
        Video video = uploads.completedVideo(owner, Variant.B, taskId);
        Plan plan = scoring.clientPlan(new String(planJson, StandardCharsets.UTF_8), video);
        String analysisKey = analysisFor(owner, video, plan);
        ExecutionState state = executions.start(owner, video.id(), analysisKey, plan);
        ctx.json(new ExecutionStarted(
                taskId, state.record().id(), "Execution queued; poll /sync_status with this execid."));
    }

    /** The analysis behind the plan: the one its id was generated from, else this video's finished analysis. */
    private String analysisFor(Principal owner, Video video, Plan plan) {
        if (plan.id() != null) {
            try {
                StoredPlan stored = plans.find(owner, plan.id());
                if (stored.videoId().equals(video.id())) {
                    return stored.analysisKey();
                }
            } catch (NotFound ignored) {
                // A plan written by hand may carry any id; fall back to the video's own analysis.
            }
        }
        return analyses.latest(owner, video.id())
                .filter(state -> state.record().resultKey() != null)
                .map(state -> state.record().resultKey())
                .orElseThrow(
                        () -> new WrongState(
                                "taskid",
                                "This task's video has no finished analysis "
                                        + "and the plan was not generated by /sync_generate; call /sync_video_analysis first."));
    }

    private void status(Context ctx) {
        JsonFields fields = requests.body(ctx);
        String execId = fields.requiredString("execid");
        fields.check();
        Optional<ExecutionState> found = executions.byId(Authenticator.principal(ctx), execId);
        if (found.isEmpty()) {
            ctx.json(new Inactive(
                    "inactive",
                    null,
                    "There is no active execution " + execId
                            + " for this API key; use the execid from /sync_execute."));
            return;
        }
        ExecutionState state = found.get();
        var job = state.job();
        ctx.json(new ExecutionStatus(
                job.status().wire(),
                scoring.url(state),
                scoring.queryUrl(state),
                job.message(),
                job.progress(),
                job.errorCode(),
                job.errorField(),
                scoring.links(state)));
    }

    private JsonFields payload(Context ctx) {
        try (InputStream in =
                part(ctx, "payload", "payload (a JSON object with taskid)").getInputStream()) {
            return JsonFields.parse(requests.mapper(), in, requests.maxJsonBytes(), "payload");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private byte[] readPart(Part part, String name) {
        if (part.getSize() > requests.maxJsonBytes()) {
            throw new TooLarge(name, "The " + name + " file is larger than " + requests.maxJsonBytes() + " bytes.");
        }
        try (InputStream in = part.getInputStream()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void requireMultipart(Context ctx, String parts) {
        String contentType = ctx.contentType();
        if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("multipart/form-data")) {
            throw new InvalidParameter("Content-Type", "Send multipart/form-data with the parts " + parts + ".");
        }
        ctx.req().setAttribute(JETTY_MULTIPART_CONFIG, multipart);
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
        AnalysisState state = analyses.await(
                owner, analyses.start(owner, uploads.completedVideo(owner, Variant.B, taskId)), analysisWait);
        switch (state.job().status()) {
            case FINISHED -> ctx.json(new Analysed(taskId, state.job().message(), views.analysisOf(state)));
            case ERROR -> throw JobViews.failure(state.job());
            case PENDING, PROCESSING ->
                ctx.status(202)
                        .json(new StillAnalysing(
                                taskId,
                                state.job().status().wire(),
                                state.job().progress(),
                                "The analysis is still running ("
                                        + Math.round(state.job().progress() * 100)
                                        + " % done); call /sync_video_analysis again to get it.",
                                null));
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
        ctx.json(new Initialized(
                upload.id(), "Upload task created; send the chunks to /sync_upload_chunk with this taskid."));
    }

    private void uploadChunk(Context ctx) {
        String contentType = ctx.contentType();
        if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("multipart/form-data")) {
            throw new InvalidParameter(
                    "Content-Type",
                    "Send multipart/form-data with two parts: file (the chunk's bytes) and payload (JSON).");
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
            receipt = uploads.putChunk(
                    Authenticator.principal(ctx),
                    Variant.B,
                    taskId,
                    new IncomingChunk(index, total, expectedCrc32c, expectedSha256, filePart.getSize(), in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            deleteQuietly(filePart);
        }
        ctx.json(new ChunkStored(
                receipt.uploadId(),
                "active",
                receipt.chunkId(),
                receipt.index(),
                "Chunk " + receipt.index() + " of " + total + " stored.",
                receipt.size(),
                receipt.crc32c(),
                receipt.sha256()));
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
        ctx.json(new Completed(
                done.upload().id(),
                "complete",
                "Video assembled and its audio extracted; next, call /sync_video_analysis with this taskid.",
                new VideoSummary(
                        v.duration(),
                        v.width(),
                        v.height(),
                        v.fps(),
                        v.hasAudio(),
                        v.container(),
                        v.videoCodec(),
                        v.rotation(),
                        v.frames(),
                        v.size(),
                        v.crc32c())));
    }

    /** Jetty reports a part or request above the caps as a generic "bad multipart" with the reason inside. */
    private static boolean exceedsCap(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
            if (message.contains("max")
                    && (message.contains("size") || message.contains("exceed") || message.contains("length"))) {
                return true;
            }
        }
        return false;
    }

    /** Jetty counts parts against the form-key limit and says so ("Form with too many keys [9 > 8]") inside "bad multipart". */
    private static boolean tooManyParts(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT).contains("too many keys")) {
                return true;
            }
        }
        return false;
    }

    private Part part(Context ctx, String name, String description) {
        Part part = optionalPart(ctx, name, description);
        if (part == null) {
            throw new InvalidParameter(name, "The multipart part " + description + " is missing.");
        }
        return part;
    }

    /** The part {@code name}, or null when the body has none; a body that cannot be read is refused as for a required part. */
    private Part optionalPart(Context ctx, String name, String description) {
        Part part;
        try {
            part = ctx.req().getPart(name);
        } catch (ServletException | IOException | RuntimeException e) {
            if (tooManyParts(e)) {
                throw new TooLarge(
                        "body",
                        "A multipart body here has at most " + MAX_PARTS + " parts; send only the parts " + description
                                + " names, each once.");
            }
            if (exceedsCap(e)) {
                // Jetty reads the whole body to find a part, so the part over its cap may be another one than asked
                // for:
                // on the chunk upload it is the file, elsewhere the JSON file the call is for.
                boolean chunk = ctx.path().endsWith("/sync_upload_chunk");
                throw new TooLarge(
                        chunk ? "file" : name,
                        chunk
                                ? "The chunk is larger than the limit of " + maxChunkBytes
                                        + " bytes; split the file into smaller chunks."
                                : "A part of this request is larger than the server accepts: send " + name
                                        + " as a file part (e.g. curl -F '"
                                        + name + "=@" + name + ".json'), at most " + requests.maxJsonBytes()
                                        + " bytes, and a file chunk of at most "
                                        + maxChunkBytes + " bytes.");
            }
            throw new InvalidParameter(
                    "Content-Type",
                    "The multipart body could not be read (" + e.getMessage()
                            + "); send multipart/form-data with parts file and payload.");
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

    record Generated(String taskid, String planId, JsonNode plan, String message) {}

    record ExecutionStarted(String taskid, String execid, String message) {}

    /** Exactly the spec's shape for inactive: no url, videourl null. */
    record Inactive(String status, String videourl, String message) {}

    /** {@code url}: the video (finished) or the failure report (error); {@code queryurl}: results.json when finished. */
    record ExecutionStatus(
            String status,
            String url,
            String queryurl,
            String message,
            double progress,
            String error,
            String field,
            Map<String, String> links) {}

    record Analysed(String taskid, String message, JsonNode analysis) {}

    record StillAnalysing(String taskid, String status, double progress, String message, JsonNode analysis) {}

    record ChunkStored(
            String taskid,
            String state,
            String chunkid,
            int index,
            String message,
            long size,
            String crc32c,
            String sha256) {}

    record VideoSummary(
            double duration,
            int width,
            int height,
            double fps,
            boolean hasAudio,
            String container,
            String videoCodec,
            int rotation,
            long frames,
            long size,
            String crc32c) {}

    record Completed(String taskid, String state, String message, VideoSummary video) {}
}
