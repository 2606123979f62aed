package dev.scorecast.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.scorecast.engine.error.NotFound;
import dev.scorecast.engine.style.GenreCatalog;
import dev.scorecast.server.analysis.AnalysisService;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.execution.ExecutionService;
import dev.scorecast.server.jobs.Job;
import dev.scorecast.server.jobs.JobStatus;
import dev.scorecast.server.upload.UploadService;
import dev.scorecast.server.webhooks.EventData;
import dev.scorecast.server.webhooks.EventType;
import java.time.Instant;

/**
 * The {@code data} of webhook deliveries, in the shapes this surface answers: a job's events carry
 * what /sync/status answers for the job (its own fields as they were when the event happened), an
 * upload's what /sync/complete_video_upload answered; other events carry their snapshot as it is.
 */
public final class EventObjects implements EventData {
    private final UploadService uploads;
    private final StatusObjects statuses;
    private final ObjectMapper mapper;

    public EventObjects(
            UploadService uploads,
            AnalysisService analyses,
            ExecutionService executions,
            GenreCatalog genres,
            ObjectMapper mapper) {
        this.uploads = uploads;
        this.statuses = new StatusObjects(
                analyses, executions, new Scoring(genres, executions), new JobViews(analyses, mapper));
        this.mapper = mapper;
    }

    @Override
    public JsonNode data(String owner, EventType type, JsonNode snapshot) {
        Principal principal = new Principal(owner);
        return switch (type) {
            case UPLOAD_COMPLETED -> {
                try {
                    yield mapper.valueToTree(SyncAApi.completed(
                            snapshot.path("upload_id").asText(),
                            uploads.video(principal, snapshot.path("video_id").asText())));
                } catch (NotFound gone) {
                    yield null; // removed since (retention): the snapshot says what it was
                }
            }
            case ANALYSIS_FINISHED, ANALYSIS_FAILED, EXECUTION_PROGRESS, EXECUTION_FINISHED, EXECUTION_FAILED -> {
                Job as = new Job(
                        snapshot.path("job_id").asText(),
                        owner,
                        snapshot.path("kind").asText(),
                        snapshot.path("subject_id").asText(),
                        JobStatus.fromWire(snapshot.path("status").asText()),
                        snapshot.path("progress").asDouble(),
                        snapshot.path("message").asText(),
                        text(snapshot, "error"),
                        text(snapshot, "field"),
                        Instant.ofEpochMilli(snapshot.path("created_at").asLong()),
                        Instant.ofEpochMilli(snapshot.path("at").asLong()));
                yield statuses.ofJob(principal, as.id(), as)
                        .<JsonNode>map(mapper::valueToTree)
                        .orElse(null);
            }
            case STREAM_ENDED, TEST -> snapshot;
        };
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}
