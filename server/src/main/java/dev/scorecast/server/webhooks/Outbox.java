package dev.scorecast.server.webhooks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.jobs.JobChange;
import dev.scorecast.server.jobs.JobEvents;
import dev.scorecast.server.jobs.JobStatus;
import dev.scorecast.server.player.StreamEvents;
import dev.scorecast.server.upload.Upload;
import dev.scorecast.server.upload.UploadEvents;
import dev.scorecast.server.upload.Video;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Turns what happens into webhook deliveries, in the transaction that makes it happen: a job ending
 * and its {@code execution.finished} delivery commit together or not at all, so neither a crash
 * nor a database error between the two can lose an event. Nothing is written for an owner with no
 * endpoint subscribed to the type. The small snapshot written here is the state the event reports;
 * the body sent is built from it at the first attempt ({@link EventBodies}).
 */
public final class Outbox implements JobEvents, UploadEvents, StreamEvents {
    /** Kinds of job, as the jobs table names them. */
    private static final String ANALYSIS = "analysis";

    private static final String EXECUTION = "execution";

    private final WebhookRepository webhooks;
    private final DeliveryRepository deliveries;
    private final ObjectMapper mapper;
    private final Duration retryFor;
    private final Clock clock;
    private final Doorbell doorbell;

    public Outbox(
            WebhookRepository webhooks,
            DeliveryRepository deliveries,
            ObjectMapper mapper,
            Duration retryFor,
            Clock clock) {
        this(webhooks, deliveries, mapper, retryFor, clock, new Doorbell());
    }

    Outbox(
            WebhookRepository webhooks,
            DeliveryRepository deliveries,
            ObjectMapper mapper,
            Duration retryFor,
            Clock clock,
            Doorbell doorbell) {
        this.webhooks = webhooks;
        this.deliveries = deliveries;
        this.mapper = mapper;
        this.retryFor = retryFor;
        this.clock = clock;
        this.doorbell = doorbell;
    }

    Doorbell doorbell() {
        return doorbell;
    }

    @Override
    public void changed(Connection c, JobChange change) throws SQLException {
        EventType type = typeOf(change);
        if (type == null) {
            return;
        }
        ObjectNode snapshot = mapper.createObjectNode()
                .put("job_id", change.jobId())
                .put("kind", change.kind())
                .put("subject_id", change.subjectId())
                .put("status", change.status().wire())
                .put("progress", change.progress())
                .put("stage", change.stage())
                .put("message", change.message())
                .put("error", change.errorCode())
                .put("field", change.errorField())
                .put("created_at", change.createdAt().toEpochMilli())
                .put("at", change.at().toEpochMilli());
        record(c, change.owner(), type, change.jobId(), snapshot);
    }

    /**
     * The event a change of a job is, if any. Progress is told at each new stage and each tenth of
     * the way (an execution writes its progress at every percent; a receiver needs far fewer calls).
     */
    static EventType typeOf(JobChange change) {
        boolean execution = change.kind().equals(EXECUTION);
        if (!execution && !change.kind().equals(ANALYSIS)) {
            return null;
        }
        if (change.ended()) {
            return switch (change.status()) {
                case FINISHED -> execution ? EventType.EXECUTION_FINISHED : EventType.ANALYSIS_FINISHED;
                case ERROR -> execution ? EventType.EXECUTION_FAILED : EventType.ANALYSIS_FAILED;
                case PENDING, PROCESSING -> null;
            };
        }
        if (execution && change.status() == JobStatus.PROCESSING) {
            boolean started = change.before() != JobStatus.PROCESSING;
            boolean newStage = change.stage() != null && !change.stage().equals(change.stageBefore());
            boolean newTenth = change.percent() / 10 > JobChange.percentOf(change.progressBefore()) / 10;
            return started || newStage || newTenth ? EventType.EXECUTION_PROGRESS : null;
        }
        return null;
    }

    @Override
    public void completed(Connection c, Upload upload, Video video) throws SQLException {
        record(
                c,
                upload.owner(),
                EventType.UPLOAD_COMPLETED,
                upload.id(),
                mapper.createObjectNode().put("upload_id", upload.id()).put("video_id", video.id()));
    }

    @Override
    public void ended(Connection c, String streamId, String owner, String reason, Instant at) throws SQLException {
        record(
                c,
                owner,
                EventType.STREAM_ENDED,
                streamId,
                mapper.createObjectNode()
                        .put("stream_id", streamId)
                        .put("reason", reason)
                        .put("ended_at", at.toString()));
    }

    /** Records {@code type} for {@code owner}'s endpoints subscribed to it; the dispatcher hears of it once it commits. */
    private void record(Connection c, String owner, EventType type, String objectId, ObjectNode snapshot)
            throws SQLException {
        List<String> subscribed = webhooks.subscribed(c, owner, type);
        if (subscribed.isEmpty()) {
            return;
        }
        enqueue(c, owner, type, objectId, snapshot, subscribed);
    }

    /** Records {@code type} for exactly {@code webhookIds} (a test event goes to one endpoint, subscribed or not). */
    String enqueue(
            Connection c, String owner, EventType type, String objectId, ObjectNode snapshot, List<String> webhookIds)
            throws SQLException {
        Instant now = clock.instant();
        String eventId =
                deliveries.enqueue(c, owner, type, objectId, snapshot.toString(), webhookIds, now, now.plus(retryFor));
        Database.afterCommit(doorbell::ring);
        return eventId;
    }

    /** A new delivery of an event already recorded (a redelivery), after the endpoint's others about the same object. */
    String enqueueAgain(Connection c, String owner, String webhookId, String eventId, String objectId)
            throws SQLException {
        Instant now = clock.instant();
        String id = deliveries.insertDelivery(c, webhookId, eventId, owner, objectId, now, now.plus(retryFor));
        Database.afterCommit(doorbell::ring);
        return id;
    }
}
