package dev.scorecast.server.analysis;

import dev.scorecast.engine.core.Ticker;
import dev.scorecast.engine.error.NotFound;
import dev.scorecast.engine.error.WrongState;
import dev.scorecast.server.auth.Ids;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import dev.scorecast.server.jobs.Job;
import dev.scorecast.server.jobs.JobFeed;
import dev.scorecast.server.jobs.JobRepository;
import dev.scorecast.server.jobs.JobRunner;
import dev.scorecast.server.jobs.JobStatus;
import dev.scorecast.server.quota.QuotaGuard;
import dev.scorecast.server.storage.BlobStore;
import dev.scorecast.server.upload.UploadService;
import dev.scorecast.server.upload.Video;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Analyses run as jobs: {@link #start} records one and queues it, a worker runs {@link #run},
 * and clients poll the job or, in variant B, {@link #await} it. One video has one analysis:
 * asking again returns the one that exists, unless it failed.
 */
public final class AnalysisService {
    public static final String TASK = "analyse-video";
    public static final String KIND = "analysis";
    /** The one stage of an analysis, as /sync/events names it. */
    public static final String STAGE = "analyse";

    private final QuotaGuard quotas;
    private final Database database;
    private final BlobStore blobs;
    private final UploadService uploads;
    private final JobRepository jobs;
    private final JobRunner runner;
    private final JobFeed feed;
    private final Clock clock;
    private final Ticker ticker;

    /**
     * {@code runner} runs {@link AnalysisJob} under {@link #TASK}; this service queues for it. {@code feed} tells
     * {@link #await} of its job's changes, and {@code ticker} times that wait.
     */
    public AnalysisService(
            Database database,
            BlobStore blobs,
            UploadService uploads,
            JobRepository jobs,
            JobRunner runner,
            JobFeed feed,
            QuotaGuard quotas,
            Clock clock,
            Ticker ticker) {
        this.database = database;
        this.quotas = quotas;
        this.blobs = blobs;
        this.uploads = uploads;
        this.jobs = jobs;
        this.runner = runner;
        this.feed = feed;
        this.clock = clock;
        this.ticker = ticker;
    }

    /** Queues again the analyses a stopped server left pending (their queue entry may be missing). */
    public void requeueUnfinished() {
        jobs.unfinished(KIND).forEach(id -> runner.enqueue(TASK, id));
    }

    /** Queues a run for each pending job that has none ({@link JobRunner#requeueUnscheduled}); an upkeep sweep. */
    public void requeueUnscheduled() {
        runner.requeueUnscheduled(KIND, TASK);
    }

    /**
     * Starts an analysis of {@code video}, or returns the one already running or finished. Racing
     * callers get the same one: the database holds one current analysis per video (a unique index),
     * so the insert of every caller but the first does nothing, and that caller returns the first's.
     */
    public AnalysisState start(Principal owner, Video video) {
        Optional<AnalysisState> current = latest(owner, video.id());
        if (current.isPresent() && current.get().job().status() != JobStatus.ERROR) {
            return current.get();
        }
        Instant now = clock.instant();
        var job = new Job(
                Ids.next("job"),
                owner.user(),
                KIND,
                video.id(),
                JobStatus.PENDING,
                0,
                "Analysis queued.",
                null,
                null,
                now,
                now);
        var record = new AnalysisRecord(Ids.next("ana"), owner.user(), video.id(), job.id(), null, now);
        quotas.requireFreeDisk();
        int queuedBefore;
        try {
            queuedBefore = database.transaction(c -> {
                uploads.holdVideo(c, owner, video.id());
                int before = quotas.requireAnalysisSlot(c, owner);
                if (current.isPresent()) {
                    // The failed analysis steps aside for its retry; a racing retry finds it gone and its own insert
                    // does nothing.
                    Rows.update(
                            c,
                            "UPDATE analyses SET superseded_at = ? WHERE id = ? AND superseded_at IS NULL",
                            now.toEpochMilli(),
                            current.get().record().id());
                }
                jobs.insert(c, job);
                int inserted = Rows.update(
                        c,
                        """
                        INSERT INTO analyses (id, owner, video_id, job_id, result_key, created_at) VALUES (?, ?, ?, ?, ?, ?)
                        ON CONFLICT (owner, video_id) WHERE superseded_at IS NULL DO NOTHING""",
                        record.id(),
                        record.owner(),
                        record.videoId(),
                        record.jobId(),
                        null,
                        now.toEpochMilli());
                if (inserted == 0) {
                    throw new StartedElsewhere();
                }
                return before;
            });
        } catch (StartedElsewhere e) {
            // Rolled back, our job row with it; the other caller's analysis is committed (PostgreSQL waited for it).
            return latest(owner, video.id())
                    .orElseThrow(() -> new WrongState(
                            "video_id",
                            "Another request started an analysis of " + video.id()
                                    + " at the same moment and it is gone already; ask again."));
        }
        runner.enqueue(TASK, job.id(), queuedBefore);
        return new AnalysisState(record, job);
    }

    /** Unwinds the transaction of a caller that lost the race to start an analysis. */
    private static final class StartedElsewhere extends RuntimeException {
        StartedElsewhere() {
            super("another request started this analysis", null, false, false);
        }
    }

    /** The current analysis of a video for this owner (the newest; those it replaced are superseded), with its job. */
    public Optional<AnalysisState> latest(Principal owner, String videoId) {
        return database.query(c -> Rows.one(
                        c,
                        "SELECT * FROM analyses WHERE owner = ? AND video_id = ? AND superseded_at IS NULL",
                        AnalysisService::record,
                        owner.user(),
                        videoId))
                .flatMap(record -> withJob(owner, record));
    }

    public Optional<AnalysisState> byJob(Principal owner, String jobId) {
        return database.query(c -> Rows.one(
                        c,
                        "SELECT * FROM analyses WHERE owner = ? AND job_id = ?",
                        AnalysisService::record,
                        owner.user(),
                        jobId))
                .flatMap(record -> withJob(owner, record));
    }

    /**
     * The record with its job, read so the two agree. They are two statements, and a run finishing between them commits the
     * job's end and the result's key together: a record read before that and a job read after would say "finished" with no
     * result (seen on PostgreSQL in ScaleOutTest). So once the job reads as done, the record is read again, after it.
     */
    private Optional<AnalysisState> withJob(Principal owner, AnalysisRecord record) {
        return jobs.find(owner, record.jobId()).map(job -> {
            if (!job.status().isDone() || record.resultKey() != null) {
                return new AnalysisState(record, job);
            }
            AnalysisRecord after = database.query(c ->
                            Rows.one(c, "SELECT * FROM analyses WHERE id = ?", AnalysisService::record, record.id()))
                    .orElse(record);
            return new AnalysisState(after, job);
        });
    }

    /** Whose analysis {@code analysisId} is (a signed events link names the analysis, not its owner). */
    public Optional<Principal> ownerOf(String analysisId) {
        return database.query(c -> Rows.one(
                c,
                "SELECT owner FROM analyses WHERE id = ?",
                row -> new Principal(row.getString("owner")),
                analysisId));
    }

    public AnalysisState byId(Principal owner, String analysisId) {
        return database.query(c -> Rows.one(
                        c,
                        "SELECT * FROM analyses WHERE owner = ? AND id = ?",
                        AnalysisService::record,
                        owner.user(),
                        analysisId))
                .flatMap(record -> withJob(owner, record))
                .orElseThrow(() -> new NotFound(
                        "analysis_id",
                        "No analysis " + analysisId
                                + " exists for this API key; use the analysis_id from /sync/video_analysis."));
    }

    /**
     * Waits until the job is done or {@code limit} has passed, and returns its state then. The wait is on the job feed's
     * notification of a change (any node may run the job; the feed reads them all in one query), up to a deadline.
     */
    public AnalysisState await(Principal owner, AnalysisState state, Duration limit) throws InterruptedException {
        if (state.job().status().isDone()) {
            return state;
        }
        long deadline = ticker.nanos() + limit.toNanos();
        try (JobFeed.Watch watch = feed.watch(state.record().jobId())) {
            for (long left = limit.toNanos(); left > 0; left = deadline - ticker.nanos()) {
                Optional<JobFeed.Snapshot> seen = watch.next(Duration.ofNanos(left));
                if (seen.isPresent() && seen.get().status().isDone() || feed.isClosed()) {
                    break;
                }
            }
        }
        return byJob(owner, state.record().jobId()).orElse(state);
    }

    /** The finished analysis as stored, bytes for bytes. */
    public byte[] resultJson(AnalysisState state) {
        if (state.record().resultKey() == null) {
            throw new IllegalStateException("analysis " + state.record().id() + " has no result yet");
        }
        try (InputStream in = blobs.open(state.record().resultKey())) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static AnalysisRecord record(ResultSet row) throws SQLException {
        return new AnalysisRecord(
                row.getString("id"),
                row.getString("owner"),
                row.getString("video_id"),
                row.getString("job_id"),
                row.getString("result_key"),
                Instant.ofEpochMilli(row.getLong("created_at")));
    }

    /** An analysis with its job, as read at one moment. */
    public record AnalysisState(AnalysisRecord record, Job job) {}
}
