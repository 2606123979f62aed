package dev.scorecast.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.UnsupportedMedia;
import dev.scorecast.engine.plan.GenerationOptions;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.PlanJson;
import dev.scorecast.engine.style.GenreCatalog;
import dev.scorecast.server.analysis.AnalysisService;
import dev.scorecast.server.analysis.AnalysisService.AnalysisState;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.execution.ConformService;
import dev.scorecast.server.execution.ExecutionService;
import dev.scorecast.server.execution.ExecutionService.ExecutionState;
import dev.scorecast.server.execution.PlanService;
import dev.scorecast.server.execution.StoredPlan;
import dev.scorecast.server.upload.Chunk;
import dev.scorecast.server.upload.ChunkReceipt;
import dev.scorecast.server.upload.CompletedUpload;
import dev.scorecast.server.upload.IncomingChunk;
import dev.scorecast.server.upload.Upload;
import dev.scorecast.server.upload.UploadProgress;
import dev.scorecast.server.upload.UploadService;
import dev.scorecast.server.upload.Variant;
import dev.scorecast.server.upload.Video;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/** Sync variant A: {@code /sync/...}, JSON bodies and raw octet-stream chunks. */
public final class SyncAApi {
    private static final Pattern MEDIA_TYPE =
            Pattern.compile("[a-z0-9][a-z0-9!#$&^_.+-]*/[a-z0-9][a-z0-9!#$&^_.+-]*(;.*)?");

    private final UploadService uploads;
    private final AnalysisService analyses;
    private final PlanService plans;
    private final ExecutionService executions;
    private final Scoring scoring;
    private final StatusObjects statuses;
    private final Requests requests;
    private final long maxChunkBytes;
    private final EventLinks eventLinks;
    private final ConformService conforms;

    public SyncAApi(
            UploadService uploads,
            AnalysisService analyses,
            PlanService plans,
            ExecutionService executions,
            GenreCatalog genres,
            Requests requests,
            long maxChunkBytes,
            EventLinks eventLinks,
            ConformService conforms) {
        this.conforms = conforms;
        this.uploads = uploads;
        this.analyses = analyses;
        this.plans = plans;
        this.executions = executions;
        this.scoring = new Scoring(genres, executions);
        this.statuses = new StatusObjects(analyses, executions, scoring, new JobViews(analyses, requests.mapper()));
        this.requests = requests;
        this.maxChunkBytes = maxChunkBytes;
        this.eventLinks = eventLinks;
    }

    public void register(RoutesConfig routes) {
        routes.post("/sync/initialize_video_upload", this::initialize);
        routes.post("/sync/upload_chunk", this::uploadChunk);
        routes.get("/sync/upload_status", this::uploadStatus);
        routes.post("/sync/complete_video_upload", this::complete);
        routes.post("/sync/video_analysis", this::analyse);
        routes.post("/sync/generate", this::generate);
        routes.post("/sync/execute", this::execute);
        routes.post("/sync/conform", this::conform);
        routes.post("/sync/read_markers", this::readMarkers);
        routes.post("/sync/status", this::status);
    }

    private void generate(Context ctx) {
        JsonFields fields = requests.body(ctx);
        String analysisId = fields.requiredString("analysis_id");
        GenerationOptions options = scoring.options(fields);
        var markers = scoring.markers(fields);
        fields.check();
        StoredPlan plan = plans.generate(Authenticator.principal(ctx), analysisId, options, markers);
        ctx.json(new Generated(plan.id(), scoring.planNode(plan.plan(), requests.mapper())));
    }

    /**
     * A plan for a re-cut that keeps the music of the shots an earlier execution scored (issue 27):
     * answered like generate, with what happened to every span.
     */
    private void conform(Context ctx) {
        JsonFields fields = requests.body(ctx);
        String analysisId = fields.requiredString("analysis_id");
        String executionId = fields.requiredString("execution_id");
        fields.check();
        ConformService.Result result = conforms.conform(Authenticator.principal(ctx), analysisId, executionId);
        ctx.json(new Conformed(
                result.plan().id(),
                scoring.planNode(result.plan().plan(), requests.mapper()),
                ConformReport.of(result.spans(), result.plan().plan())));
    }

    /**
     * The markers of an editor's marker file (EDL, FCPXML, Premiere CSV; base64 in JSON), read for the
     * video of {@code analysis_id}: the studio shows them to edit before generate. A file that cannot
     * be read is 422 naming the line.
     */
    private void readMarkers(Context ctx) {
        JsonFields fields = requests.body(ctx);
        String analysisId = fields.requiredString("analysis_id");
        String encoded = fields.requiredString("markers_file");
        byte[] file = null;
        if (encoded != null) {
            try {
                file = Base64.getDecoder().decode(encoded.replaceFirst("^data:[^,]*,", ""));
            } catch (IllegalArgumentException e) {
                fields.problem(
                        "markers_file",
                        "markers_file must be the file's bytes in base64 (a data: URL is accepted too).");
            }
        }
        fields.check();
        var read = plans.readMarkers(Authenticator.principal(ctx), analysisId, file);
        ctx.json(Map.of(
                "markers",
                read.stream()
                        .map(m -> Map.of("time", m.time(), "kind", m.kind().wire()))
                        .toList()));
    }

    /** Runs the stored plan, or the edited copy the client sends as {@code plan} (validated against the video). */
    private void execute(Context ctx) {
        JsonFields fields = requests.body(ctx);
        String planId = fields.requiredString("plan_id");
        JsonNode edited = fields.optionalNode("plan");
        if (edited != null && !edited.isObject()) {
            fields.problem(
                    "plan", "plan must be the plan object from /sync/generate (edited as you like), or left out.");
        }
        fields.check();
        Principal owner = Authenticator.principal(ctx);
        StoredPlan stored = plans.find(owner, planId);
        Video video = uploads.video(owner, stored.videoId());
        Plan plan = edited == null
                ? scoring.clientPlan(PlanJson.write(stored.plan()), video)
                : scoring.clientPlan(edited, video);
        ExecutionState state = executions.start(owner, video.id(), stored.analysisKey(), plan.withId(stored.id()));
        ctx.json(new ExecutionStarted(
                state.job().id(),
                state.record().id(),
                state.job().status().wire(),
                "Execution queued; follow it at events_url (Server-Sent Events) or poll /sync/status with this job_id.",
                eventLinks.forExecution(state.record().id())));
    }

    private void analyse(Context ctx) {
        JsonFields fields = requests.body(ctx);
        String videoId = fields.requiredString("video_id");
        fields.check();
        Principal owner = Authenticator.principal(ctx);
        AnalysisState state = analyses.start(owner, uploads.video(owner, videoId));
        ctx.json(new AnalysisStarted(
                state.job().id(),
                state.record().id(),
                videoId,
                state.job().status().wire(),
                eventLinks.forAnalysis(state.record().id())));
    }

    private void status(Context ctx) {
        JsonFields fields = requests.body(ctx);
        String jobId = fields.requiredString("job_id");
        fields.check();
        ctx.json(statuses.ofJob(Authenticator.principal(ctx), jobId));
    }

    private void initialize(Context ctx) {
        JsonFields fields = requests.body(ctx);
        String fileName = fields.requiredString("file_name");
        Long fileSize = fields.requiredLong("file_size");
        String fileType = fields.requiredString("file_type");
        Requests.checkFileName(fields, "file_name", fileName);
        if (fileSize != null && fileSize < 1) {
            fields.problem("file_size", "file_size must be the file's size in bytes, at least 1.");
        }
        if (fileType != null
                && !MEDIA_TYPE.matcher(fileType.toLowerCase(Locale.ROOT)).matches()) {
            fields.problem("file_type", "file_type must be a media type such as video/mp4.");
        }
        fields.check();
        String mediaType = fileType.toLowerCase(Locale.ROOT).split(";")[0].strip();
        if (!mediaType.startsWith("video/")
                && !mediaType.equals("application/octet-stream")
                && !mediaType.equals("application/mp4")) {
            throw new UnsupportedMedia(
                    "file_type",
                    "file_type is " + mediaType
                            + "; only videos are accepted (video/mp4, video/quicktime, video/webm, video/x-matroska, ...).");
        }
        Upload upload = uploads.initialize(Authenticator.principal(ctx), Variant.A, fileName, fileSize, mediaType);
        ctx.json(new Initialized(upload.id(), maxChunkBytes, upload.expiresAt().toString()));
    }

    private void uploadChunk(Context ctx) {
        String uploadId = ctx.header("X-Upload-Id");
        if (uploadId == null || uploadId.isBlank()) {
            throw new InvalidParameter(
                    "X-Upload-Id", "The X-Upload-Id header is required: the upload_id from initialize_video_upload.");
        }
        int index = chunkIndex(ctx.header("X-Chunk-Index"));
        String crc32c = Requests.optionalCrc32c(ctx.header("X-Chunk-Crc32c"), "X-Chunk-Crc32c");
        String sha256 = Requests.optionalSha256(ctx.header("X-Chunk-Sha256"), "X-Chunk-Sha256");
        String contentType = ctx.contentType();
        if (contentType != null && !contentType.toLowerCase(Locale.ROOT).startsWith("application/octet-stream")) {
            throw new InvalidParameter(
                    "Content-Type",
                    "Send the chunk's raw bytes with Content-Type: application/octet-stream, not " + contentType + ".");
        }
        long length = ctx.req().getContentLengthLong();
        ChunkReceipt receipt;
        try {
            receipt = uploads.putChunk(
                    Authenticator.principal(ctx),
                    Variant.A,
                    uploadId.strip(),
                    new IncomingChunk(
                            index,
                            null,
                            crc32c,
                            sha256,
                            length >= 0 ? length : null,
                            ctx.req().getInputStream()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ctx.json(new ChunkStored(
                receipt.uploadId(), receipt.index(), receipt.size(), receipt.crc32c(), receipt.sha256()));
    }

    private void uploadStatus(Context ctx) {
        String uploadId = ctx.queryParam("upload_id");
        if (uploadId == null || uploadId.isBlank()) {
            throw new InvalidParameter(
                    "upload_id", "The upload_id query parameter is required: /sync/upload_status?upload_id=...");
        }
        UploadProgress progress = uploads.progress(Authenticator.principal(ctx), Variant.A, uploadId.strip());
        Upload upload = progress.upload();
        ctx.json(new Progress(
                upload.id(),
                upload.state().wire(),
                upload.fileName(),
                upload.fileSize(),
                progress.receivedBytes(),
                progress.chunks().stream().map(SyncAApi::summary).toList(),
                upload.videoId(),
                upload.expiresAt().toString()));
    }

    private void complete(Context ctx) {
        JsonFields fields = requests.body(ctx);
        String uploadId = fields.requiredString("upload_id");
        fields.check();
        CompletedUpload done = uploads.complete(Authenticator.principal(ctx), Variant.A, uploadId, null);
        ctx.json(completed(done.upload().id(), done.video()));
    }

    /** What complete answers; also the data of an upload.completed webhook. */
    static Completed completed(String uploadId, Video v) {
        return new Completed(
                uploadId,
                v.id(),
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
                v.crc32c());
    }

    private static int chunkIndex(String header) {
        if (header == null || header.isBlank()) {
            throw new InvalidParameter(
                    "X-Chunk-Index", "The X-Chunk-Index header is required: the chunk's position, counting from 0.");
        }
        try {
            return Integer.parseInt(header.strip());
        } catch (NumberFormatException e) {
            throw new InvalidParameter(
                    "X-Chunk-Index", "X-Chunk-Index must be a whole number counting from 0, not \"" + header + "\".");
        }
    }

    /** {@code events_url}: the job's progress as Server-Sent Events, signed so that it needs no Authorization header (EventSource). */
    record AnalysisStarted(String jobId, String analysisId, String videoId, String status, String eventsUrl) {}

    record Generated(String planId, JsonNode plan) {}

    record Conformed(String planId, JsonNode plan, ConformReport conform) {}

    record ExecutionStarted(String jobId, String executionId, String status, String message, String eventsUrl) {}

    record Initialized(String uploadId, long chunkSize, String expiresAt) {}

    record ChunkStored(String uploadId, int chunkIndex, long size, String crc32c, String sha256) {}

    record ChunkSummary(int index, long size, String crc32c, String sha256) {}

    record Progress(
            String uploadId,
            String state,
            String fileName,
            Long fileSize,
            long receivedBytes,
            List<ChunkSummary> chunks,
            String videoId,
            String expiresAt) {}

    record Completed(
            String uploadId,
            String videoId,
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

    static ChunkSummary summary(Chunk chunk) {
        return new ChunkSummary(chunk.index(), chunk.size(), chunk.crc32c(), chunk.sha256());
    }
}
