package dev.scorecast.server.execution;

import dev.scorecast.engine.error.Busy;
import dev.scorecast.engine.pipeline.Execution;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.PlanJson;
import dev.scorecast.server.auth.Ids;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import dev.scorecast.server.downloads.DownloadLinks;
import dev.scorecast.server.jobs.Job;
import dev.scorecast.server.jobs.JobRepository;
import dev.scorecast.server.jobs.JobRunner;
import dev.scorecast.server.jobs.JobStatus;
import dev.scorecast.server.quota.QuotaGuard;
import dev.scorecast.server.quota.Stored;
import dev.scorecast.server.storage.BlobStore;
import dev.scorecast.server.upload.UploadService;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Steps six and seven: a plan runs as a job ({@link Execution} does the work), its outputs go to
 * the blob store under {@code executions/<id>/}, and clients read the job's state and signed
 * links to the files. A failed run leaves a failure report naming the stage and what to change.
 */
public final class ExecutionService {
    public static final String TASK = "execute-plan";
    public static final String KIND = "execution";
    /** Executions one user may have pending or running at once (issue 4). */
    public static final int MAX_ACTIVE_PER_USER = 10;

    private static final Duration RETRY_AFTER = Duration.ofSeconds(30);

    private final QuotaGuard quotas;
    private final Database database;
    private final BlobStore blobs;
    private final UploadService uploads;
    private final JobRepository jobs;
    private final JobRunner runner;
    private final DownloadLinks links;
    private final Clock clock;

    /** {@code runner} runs {@link ExecutionJob} under {@link #TASK}; this service queues for it. */
    public ExecutionService(
            Database database,
            BlobStore blobs,
            UploadService uploads,
            JobRepository jobs,
            JobRunner runner,
            DownloadLinks links,
            QuotaGuard quotas,
            Clock clock) {
        this.database = database;
        this.quotas = quotas;
        this.blobs = blobs;
        this.uploads = uploads;
        this.jobs = jobs;
        this.runner = runner;
        this.links = links;
        this.clock = clock;
    }

    /** Queues again the executions a stopped server left pending or half done; a re-run starts over. */
    public void requeueUnfinished() {
        jobs.unfinished(KIND).forEach(id -> runner.enqueue(TASK, id));
    }

    /** Queues a run for each pending job that has none ({@link JobRunner#requeueUnscheduled}); an upkeep sweep. */
    public void requeueUnscheduled() {
        runner.requeueUnscheduled(KIND, TASK);
    }

    /**
     * Starts a run of {@code plan} (already validated against the video) on {@code videoId}.
     *
     * @throws Busy when the owner already has {@link #MAX_ACTIVE_PER_USER} executions pending or running
     */
    public ExecutionState start(Principal owner, String videoId, String analysisKey, Plan plan) {
        Instant now = clock.instant();
        String executionId = Ids.next("exe");
        var job = new Job(
                Ids.next("job"),
                owner.user(),
                KIND,
                executionId,
                JobStatus.PENDING,
                0,
                "Execution queued.",
                null,
                null,
                now,
                now);
        // Refused before anything is written; checked again with the insert, where it cannot race.
        quotas.requireFreeDisk();
        database.query(c -> {
            requireRoom(c, owner);
            return null;
        });
        String planKey = "executions/" + executionId + "/input/plan.json";
        byte[] planJson = PlanJson.write(plan).getBytes(StandardCharsets.UTF_8);
        database.query(c -> {
            quotas.requireRoomFor(c, owner, planJson.length, "plan");
            return null;
        });
        blobs.write(planKey, new ByteArrayInputStream(planJson), Long.MAX_VALUE, "plan", false);
        var record = new ExecutionRecord(
                executionId, owner.user(), job.id(), videoId, planKey, analysisKey, null, null, now, owner.keyId());
        int queuedBefore;
        try {
            queuedBefore = database.transaction(c -> {
                // Racing starts of one user (and retention) wait here for each other, so each counts the others'
                // inserts.
                uploads.holdVideo(c, owner, videoId);
                int before = requireRoom(c, owner);
                insert(c, job, record, now);
                quotas.charge(c, owner, Stored.forExecution(executionId, planKey, planJson.length), "plan");
                return before;
            });
        } catch (RuntimeException e) {
            blobs.deleteTree("executions/" + executionId);
            throw e;
        }
        runner.enqueue(TASK, job.id(), queuedBefore);
        return new ExecutionState(record, job);
    }

    /** The owner's executions pending or running, refused past {@link #MAX_ACTIVE_PER_USER}. */
    private static int requireRoom(Connection c, Principal owner) throws SQLException {
        int active = Rows.one(
                        c,
                        "SELECT COUNT(*) AS n FROM jobs WHERE owner = ? AND kind = ? AND status IN (?, ?)",
                        row -> row.getInt("n"),
                        owner.user(),
                        KIND,
                        JobStatus.PENDING.wire(),
                        JobStatus.PROCESSING.wire())
                .orElse(0);
        if (active >= MAX_ACTIVE_PER_USER) {
            throw new Busy(
                    "You already have " + active + " executions pending or running (at most " + MAX_ACTIVE_PER_USER
                            + "); wait for one to finish and try again.",
                    RETRY_AFTER);
        }
        return active;
    }

    private void insert(Connection c, Job job, ExecutionRecord record, Instant now) throws SQLException {
        jobs.insert(c, job);
        Rows.update(
                c,
                """
                INSERT INTO executions (id, owner, job_id, video_id, plan_key, analysis_key, outputs, failure_key, created_at, key_id)
                VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?)""",
                record.id(),
                record.owner(),
                record.jobId(),
                record.videoId(),
                record.planKey(),
                record.analysisKey(),
                now.toEpochMilli(),
                record.keyId());
    }

    public Optional<ExecutionState> byJob(Principal owner, String jobId) {
        return database.query(c -> Rows.one(
                        c,
                        "SELECT * FROM executions WHERE owner = ? AND job_id = ?",
                        ExecutionService::record,
                        owner.user(),
                        jobId))
                .flatMap(record -> withJob(owner, record));
    }

    /**
     * The record with its job, read so the two agree: a run ends its job and names its outputs in one commit, which can fall
     * between the record's read and the job's. So once the job reads as done, the record is read again, after it.
     */
    private Optional<ExecutionState> withJob(Principal owner, ExecutionRecord record) {
        return jobs.find(owner, record.jobId()).map(job -> {
            if (!job.status().isDone()) {
                return new ExecutionState(record, job);
            }
            ExecutionRecord after = database.query(c ->
                            Rows.one(c, "SELECT * FROM executions WHERE id = ?", ExecutionService::record, record.id()))
                    .orElse(record);
            return new ExecutionState(after, job);
        });
    }

    /** Whose execution {@code executionId} is (a signed events link names the execution, not its owner). */
    public Optional<Principal> ownerOf(String executionId) {
        return database.query(c -> Rows.one(
                c,
                "SELECT owner FROM executions WHERE id = ?",
                row -> new Principal(row.getString("owner")),
                executionId));
    }

    public Optional<ExecutionState> byId(Principal owner, String executionId) {
        return database.query(c -> Rows.one(
                        c,
                        "SELECT * FROM executions WHERE owner = ? AND id = ?",
                        ExecutionService::record,
                        owner.user(),
                        executionId))
                .flatMap(record -> withJob(owner, record));
    }

    /**
     * Signed links to a finished execution's files, by output name (video, results, audio_wav, ...). They carry the key of
     * the request that asks for them, or, made outside a request (its job writing results.json, a webhook payload, an events
     * stream opened with a signed link), the key the execution was started with: revoking that key ends them.
     */
    public Map<String, String> linksFor(ExecutionRecord record) {
        return linksFor(links, record);
    }

    /** As {@link #linksFor(ExecutionRecord)}, made by {@code links} (the job that writes results.json has no service). */
    static Map<String, String> linksFor(DownloadLinks links, ExecutionRecord record) {
        String executionId = record.id();
        Map<String, String> out = new LinkedHashMap<>();
        for (var entry : List.of(
                Map.entry("video", Execution.VIDEO), Map.entry("results", Execution.RESULTS),
                Map.entry("audio_wav", Execution.MASTER_WAV), Map.entry("audio_mp3", Execution.MASTER_MP3),
                Map.entry("stems", Execution.STEMS_ZIP), Map.entry("midi", Execution.MIDI),
                Map.entry("plan", Execution.PLAN), Map.entry("analysis", Execution.ANALYSIS),
                Map.entry("fcpxml", Execution.FCPXML), Map.entry("otio", Execution.OTIO),
                Map.entry("cue_sheet_csv", Execution.CUE_SHEET_CSV),
                        Map.entry("cue_sheet_json", Execution.CUE_SHEET_JSON))) {
            out.put(entry.getKey(), links.link(executionId, entry.getValue(), record.keyId()));
        }
        return out;
    }

    /** The signed link to a failed execution's report, with a key as {@link #linksFor} says. */
    public String failureLink(ExecutionRecord record) {
        return links.link(record.id(), "failure.json", record.keyId());
    }

    /** The blob key behind a verified download path, if that file exists. */
    public Optional<String> blobFor(String executionId, String name) {
        if (name.equals("failure.json")) {
            String key = "executions/" + executionId + "/failure.json";
            return blobs.exists(key) ? Optional.of(key) : Optional.empty();
        }
        // Outputs count only once the run that wrote them all has finished: a run cut short (a dead
        // worker, a store outage) may have left some of them, which a re-run writes again.
        String prefix = database.query(c -> Rows.one(
                        c,
                        "SELECT outputs FROM executions WHERE id = ?",
                        row -> Optional.ofNullable(row.getString("outputs")),
                        executionId))
                .flatMap(outputs -> outputs)
                .orElse(null);
        if (prefix == null) {
            return Optional.empty();
        }
        String key = prefix + "/" + name;
        return blobs.exists(key) ? Optional.of(key) : Optional.empty();
    }

    static ExecutionRecord record(ResultSet row) throws SQLException {
        return new ExecutionRecord(
                row.getString("id"),
                row.getString("owner"),
                row.getString("job_id"),
                row.getString("video_id"),
                row.getString("plan_key"),
                row.getString("analysis_key"),
                row.getString("outputs"),
                row.getString("failure_key"),
                Instant.ofEpochMilli(row.getLong("created_at")),
                row.getString("key_id"));
    }

    /** An execution with its job, as read at one moment. */
    public record ExecutionState(ExecutionRecord record, Job job) {}
}
