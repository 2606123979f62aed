package dev.scorecast.server.analysis;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.scorecast.engine.analysis.Analysis.VideoFacts;
import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.error.NotFound;
import dev.scorecast.engine.error.ScorecastException;
import dev.scorecast.engine.error.WrongState;
import dev.scorecast.server.auth.Ids;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import dev.scorecast.server.jobs.Job;
import dev.scorecast.server.jobs.JobDeadline;
import dev.scorecast.server.jobs.JobMemory;
import dev.scorecast.server.jobs.JobRepository;
import dev.scorecast.server.jobs.JobRunner;
import dev.scorecast.server.jobs.JobStatus;
import dev.scorecast.server.jobs.ProgressThrottle;
import dev.scorecast.server.jobs.Stopping;
import dev.scorecast.server.jobs.Superseded;
import dev.scorecast.server.quota.QuotaGuard;
import dev.scorecast.server.quota.Stored;
import dev.scorecast.server.storage.BlobStore;
import dev.scorecast.server.upload.UploadService;
import dev.scorecast.server.upload.Video;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.DoubleConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
    private static final Logger LOG = LoggerFactory.getLogger(AnalysisService.class);

    private final QuotaGuard quotas;
    private final Database database;
    private final BlobStore blobs;
    private final UploadService uploads;
    private final JobRepository jobs;
    private final AnalysisEngine engine;
    private final ObjectMapper json;
    private final Clock clock;
    private JobRunner runner;

    public AnalysisService(Database database, BlobStore blobs, UploadService uploads, JobRepository jobs, AnalysisEngine engine,
                           QuotaGuard quotas, ObjectMapper json, Clock clock) {
        this.database = database;
        this.quotas = quotas;
        this.blobs = blobs;
        this.uploads = uploads;
        this.jobs = jobs;
        this.engine = engine;
        this.json = json;
        this.clock = clock;
    }

    /** The job runner is built after the services whose tasks it runs; it is handed over here. */
    public void attach(JobRunner jobRunner) {
        this.runner = jobRunner;
    }

    /** Queues again the analyses a stopped server left pending (their queue entry may be missing). */
    public void requeueUnfinished() {
        jobs.unfinished(KIND).forEach(id -> runner.enqueue(TASK, id));
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
        var job = new Job(Ids.next("job"), owner.user(), KIND, video.id(), JobStatus.PENDING, 0,
                "Analysis queued.", null, null, now, now);
        var record = new AnalysisRecord(Ids.next("ana"), owner.user(), video.id(), job.id(), null, now);
        quotas.requireFreeDisk();
        int queuedBefore;
        try {
            queuedBefore = database.transaction(c -> {
                uploads.holdVideo(c, owner, video.id());
                int before = quotas.requireAnalysisSlot(c, owner);
                if (current.isPresent()) {
                    // The failed analysis steps aside for its retry; a racing retry finds it gone and its own insert does nothing.
                    Rows.update(c, "UPDATE analyses SET superseded_at = ? WHERE id = ? AND superseded_at IS NULL",
                            now.toEpochMilli(), current.get().record().id());
                }
                jobs.insert(c, job);
                int inserted = Rows.update(c, """
                        INSERT INTO analyses (id, owner, video_id, job_id, result_key, created_at) VALUES (?, ?, ?, ?, ?, ?)
                        ON CONFLICT (owner, video_id) WHERE superseded_at IS NULL DO NOTHING""",
                        record.id(), record.owner(), record.videoId(), record.jobId(), null, now.toEpochMilli());
                if (inserted == 0) {
                    throw new StartedElsewhere();
                }
                return before;
            });
        } catch (StartedElsewhere e) {
            // Rolled back, our job row with it; the other caller's analysis is committed (PostgreSQL waited for it).
            return latest(owner, video.id()).orElseThrow(() -> new WrongState("video_id", "Another request started an analysis of "
                    + video.id() + " at the same moment and it is gone already; ask again."));
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

    /**
     * Runs the analysis of one job. Safe to repeat, and safe beside another run of the same job (a
     * worker that took it over while this one was paused): each run writes its own result file and
     * only the run whose token the job holds ends it and names its result; a superseded run stops at
     * its next progress report and keeps nothing.
     */
    public void run(String jobId) {
        Job job = jobs.findForWorker(jobId).orElse(null);
        AnalysisRecord record = database.query(c -> Rows.one(c, "SELECT * FROM analyses WHERE job_id = ?", AnalysisService::record, jobId))
                .orElse(null);
        if (job == null || record == null) {
            LOG.warn("analysis job {} no longer exists; nothing to run", jobId);
            return;
        }
        if (job.status().isDone()) {
            LOG.warn("analysis job {} already ended as {}; not run again", jobId, job.status().wire());
            return;
        }
        JobRepository.Run run = jobs.start(jobId, STAGE, "Analysing the picture and the sound.").orElse(null);
        if (run == null) {
            return;
        }
        Principal owner = new Principal(job.owner());
        String key = "analyses/" + record.id() + "/analysis-" + run.token() + ".json";
        try {
            Video video = uploads.video(owner, record.videoId());
            var facts = new VideoFacts(video.duration(), video.width(), video.height(), video.fps(), video.frames(), video.hasAudio(),
                    video.videoCodec(), video.rotation());
            JobDeadline deadline = JobDeadline.forVideo(video.duration(), clock);
            var throttle = new ProgressThrottle(fraction -> jobs.report(run, Math.min(0.99, fraction), STAGE,
                    "Analysing the picture and the sound."));
            DoubleConsumer progressThrottle = fraction -> {
                deadline.check();
                throttle.accept(fraction);
            };
            Analysis analysis;
            // The decoders need files: staged from the store into this node's scratch space, removed after.
            try (BlobStore.Staged source = blobs.stage(video.storedAs());
                 BlobStore.Staged audio = video.audioStoredAs() == null ? null : blobs.stage(video.audioStoredAs())) {
                analysis = engine.analyze(source.path(), Optional.ofNullable(audio).map(BlobStore.Staged::path), facts, progressThrottle);
            }
            byte[] result = json.writeValueAsBytes(analysis);
            // Counted in the owner's share: refused (the job ends insufficient_storage) before it is written when it does not fit.
            quotas.requireFreeDisk(result.length);
            database.transaction(c -> {
                quotas.lockUser(c, owner);
                quotas.charge(c, owner, Stored.forVideo(record.videoId(), key, result.length), null);
                return null;
            });
            blobs.write(key, new ByteArrayInputStream(result), Long.MAX_VALUE, "analysis", false);
            // Named and ended in one step, and only by the run the job is still with.
            String previous = database.transaction(c -> {
                String before = Rows.one(c, "SELECT result_key FROM analyses WHERE id = ?",
                        row -> Optional.ofNullable(row.getString("result_key")), record.id()).flatMap(k -> k).orElse(null);
                jobs.finish(c, run, STAGE, "Analysis finished: " + analysis.cuts().size() + " transitions, " + analysis.scenes().size() + " scenes.");
                Rows.update(c, "UPDATE analyses SET result_key = ? WHERE id = ?", key, record.id());
                return before;
            });
            if (previous != null && !previous.equals(key)) {
                discard(previous);
            }
        } catch (Throwable e) {
            if (Superseded.in(e)) {
                LOG.warn("analysis job {}: run {} was superseded by another run; it stops and keeps nothing", jobId, run.token());
                discard(key);
                return;
            }
            discard(key);
            // The database or the store away under the run (a restart, a pause): it runs again later, it did not fail.
            dev.scorecast.server.jobs.Unavailable.rethrowIfUnavailable(e, "analysis", jobId);
            if (e instanceof ScorecastException failure) {
                jobs.fail(run, failure.code(), failure.field(), failure.getMessage());
                return;
            }
            // This node stopping under the job is not its fault: it stays unfinished and runs again on the next worker.
            Stopping.rethrowIfStopping(e, "analysis", jobId);
            // Any failure at all ends the job: an Error left to the queue would be retried without end.
            var budget = JobMemory.exceededIn(e);
            if (budget.isPresent() || e instanceof OutOfMemoryError) {
                LOG.warn("analysis job {} went over its memory budget", jobId, e);
                jobs.fail(run, "memory_budget_exceeded", null, "The analysis needed more memory than a job may take on this server"
                        + budget.map(b -> " (" + (b >> 20) + " MiB)").orElse("") + " and was stopped; a shorter video needs less.");
                return;
            }
            var late = JobDeadline.passedIn(e);
            if (late.isPresent()) {
                LOG.warn("analysis job {} passed its deadline", jobId);
                jobs.fail(run, "deadline_exceeded", null, "The analysis took longer than its deadline of " + late.get().toSeconds()
                        + " s and was stopped; the server may be overloaded. Try again later.");
                return;
            }
            LOG.error("analysis job {} failed", jobId, e);
            jobs.fail(run, "internal_error", null, "The analysis failed unexpectedly; the failure was logged. Try again later.");
        }
    }

    /** Removes a result file no row names any more, and its charge. */
    private void discard(String key) {
        try {
            blobs.delete(key);
            quotas.release(key);
        } catch (RuntimeException e) {
            LOG.warn("could not remove {} (the orphan sweep will): {}", key, e.toString());
        }
    }

    /** The current analysis of a video for this owner (the newest; those it replaced are superseded), with its job. */
    public Optional<AnalysisState> latest(Principal owner, String videoId) {
        return database.query(c -> Rows.one(c,
                        "SELECT * FROM analyses WHERE owner = ? AND video_id = ? AND superseded_at IS NULL",
                        AnalysisService::record, owner.user(), videoId))
                .flatMap(record -> withJob(owner, record));
    }

    public Optional<AnalysisState> byJob(Principal owner, String jobId) {
        return database.query(c -> Rows.one(c, "SELECT * FROM analyses WHERE owner = ? AND job_id = ?",
                        AnalysisService::record, owner.user(), jobId))
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
            AnalysisRecord after = database.query(c -> Rows.one(c, "SELECT * FROM analyses WHERE id = ?", AnalysisService::record,
                    record.id())).orElse(record);
            return new AnalysisState(after, job);
        });
    }

    /** Whose analysis {@code analysisId} is (a signed events link names the analysis, not its owner). */
    public Optional<Principal> ownerOf(String analysisId) {
        return database.query(c -> Rows.one(c, "SELECT owner FROM analyses WHERE id = ?", row -> new Principal(row.getString("owner")),
                analysisId));
    }

    public AnalysisState byId(Principal owner, String analysisId) {
        return database.query(c -> Rows.one(c, "SELECT * FROM analyses WHERE owner = ? AND id = ?",
                        AnalysisService::record, owner.user(), analysisId))
                .flatMap(record -> withJob(owner, record))
                .orElseThrow(() -> new NotFound("analysis_id", "No analysis " + analysisId
                        + " exists for this API key; use the analysis_id from /sync/video_analysis."));
    }

    /** Polls the job until it is done or {@code limit} has passed; returns the last state seen. */
    public AnalysisState await(Principal owner, AnalysisState state, Duration limit) throws InterruptedException {
        Instant deadline = clock.instant().plus(limit);
        AnalysisState current = state;
        while (!current.job().status().isDone() && clock.instant().isBefore(deadline)) {
            Thread.sleep(100);
            current = byJob(owner, state.record().jobId()).orElse(current);
        }
        return current;
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

    private static AnalysisRecord record(ResultSet row) throws SQLException {
        return new AnalysisRecord(row.getString("id"), row.getString("owner"), row.getString("video_id"), row.getString("job_id"),
                row.getString("result_key"), Instant.ofEpochMilli(row.getLong("created_at")));
    }

    /** An analysis with its job, as read at one moment. */
    public record AnalysisState(AnalysisRecord record, Job job) {}
}
