package dev.scorecast.server.analysis;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.analysis.Analysis.VideoFacts;
import dev.scorecast.engine.error.ScorecastException;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import dev.scorecast.server.jobs.Job;
import dev.scorecast.server.jobs.JobDeadline;
import dev.scorecast.server.jobs.JobMemory;
import dev.scorecast.server.jobs.JobRepository;
import dev.scorecast.server.jobs.ProgressThrottle;
import dev.scorecast.server.jobs.Stopping;
import dev.scorecast.server.jobs.Superseded;
import dev.scorecast.server.jobs.Unavailable;
import dev.scorecast.server.quota.QuotaGuard;
import dev.scorecast.server.quota.Stored;
import dev.scorecast.server.storage.BlobStore;
import dev.scorecast.server.upload.UploadService;
import dev.scorecast.server.upload.Video;
import java.io.ByteArrayInputStream;
import java.time.Clock;
import java.util.Optional;
import java.util.function.DoubleConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's side of an analysis: runs the job {@link AnalysisService#start} queued. Built before
 * the job runner (whose task it is), so the service that queues jobs gets the runner in its constructor.
 */
public final class AnalysisJob {
    private static final Logger LOG = LoggerFactory.getLogger(AnalysisJob.class);

    private final Database database;
    private final BlobStore blobs;
    private final UploadService uploads;
    private final JobRepository jobs;
    private final AnalysisEngine engine;
    private final QuotaGuard quotas;
    private final ObjectMapper json;
    private final Clock clock;

    public AnalysisJob(
            Database database,
            BlobStore blobs,
            UploadService uploads,
            JobRepository jobs,
            AnalysisEngine engine,
            QuotaGuard quotas,
            ObjectMapper json,
            Clock clock) {
        this.database = database;
        this.blobs = blobs;
        this.uploads = uploads;
        this.jobs = jobs;
        this.engine = engine;
        this.quotas = quotas;
        this.json = json;
        this.clock = clock;
    }

    /**
     * Runs the analysis of one job. Safe to repeat, and safe beside another run of the same job (a
     * worker that took it over while this one was paused): each run writes its own result file and
     * only the run whose token the job holds ends it and names its result; a superseded run stops at
     * its next progress report and keeps nothing.
     */
    public void run(String jobId) {
        Job job = jobs.findForWorker(jobId).orElse(null);
        AnalysisRecord record = database.query(
                        c -> Rows.one(c, "SELECT * FROM analyses WHERE job_id = ?", AnalysisService::record, jobId))
                .orElse(null);
        if (job == null || record == null) {
            LOG.warn("analysis job {} no longer exists; nothing to run", jobId);
            return;
        }
        if (job.status().isDone()) {
            LOG.warn(
                    "analysis job {} already ended as {}; not run again",
                    jobId,
                    job.status().wire());
            return;
        }
        JobRepository.Run run = jobs.start(jobId, AnalysisService.STAGE, "Analysing the picture and the sound.")
                .orElse(null);
        if (run == null) {
            return;
        }
        Principal owner = new Principal(job.owner());
        String key = "analyses/" + record.id() + "/analysis-" + run.token() + ".json";
        try {
            Video video = uploads.video(owner, record.videoId());
            var facts = new VideoFacts(
                    video.duration(),
                    video.width(),
                    video.height(),
                    video.fps(),
                    video.frames(),
                    video.hasAudio(),
                    video.videoCodec(),
                    video.rotation());
            JobDeadline deadline = JobDeadline.forVideo(video.duration(), clock);
            var throttle = new ProgressThrottle(fraction -> jobs.report(
                    run, Math.min(0.99, fraction), AnalysisService.STAGE, "Analysing the picture and the sound."));
            DoubleConsumer progressThrottle = fraction -> {
                deadline.check();
                throttle.accept(fraction);
            };
            Analysis analysis;
            // The decoders need files: staged from the store into this node's scratch space, removed after.
            try (BlobStore.Staged source = blobs.stage(video.storedAs());
                    BlobStore.Staged audio =
                            video.audioStoredAs() == null ? null : blobs.stage(video.audioStoredAs())) {
                analysis = engine.analyze(
                        source.path(), Optional.ofNullable(audio).map(BlobStore.Staged::path), facts, progressThrottle);
            }
            byte[] result = json.writeValueAsBytes(analysis);
            // Counted in the owner's share: refused (the job ends insufficient_storage) before it is written when it
            // does not fit.
            quotas.requireFreeDisk(result.length);
            database.transaction(c -> {
                quotas.lockUser(c, owner);
                quotas.charge(c, owner, Stored.forVideo(record.videoId(), key, result.length), null);
                return null;
            });
            blobs.write(key, new ByteArrayInputStream(result), Long.MAX_VALUE, "analysis", false);
            // Named and ended in one step, and only by the run the job is still with.
            String previous = database.transaction(c -> {
                String before = Rows.one(
                                c,
                                "SELECT result_key FROM analyses WHERE id = ?",
                                row -> Optional.ofNullable(row.getString("result_key")),
                                record.id())
                        .flatMap(k -> k)
                        .orElse(null);
                jobs.finish(
                        c,
                        run,
                        AnalysisService.STAGE,
                        "Analysis finished: " + analysis.cuts().size() + " transitions, "
                                + analysis.scenes().size() + " scenes.");
                Rows.update(c, "UPDATE analyses SET result_key = ? WHERE id = ?", key, record.id());
                return before;
            });
            if (previous != null && !previous.equals(key)) {
                discard(previous);
            }
        } catch (Throwable e) {
            if (Superseded.in(e)) {
                LOG.warn(
                        "analysis job {}: run {} was superseded by another run; it stops and keeps nothing",
                        jobId,
                        run.token());
                discard(key);
                return;
            }
            discard(key);
            // The database or the store away under the run (a restart, a pause): it runs again later, it did not fail.
            Unavailable.rethrowIfUnavailable(e, "analysis", jobId);
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
                jobs.fail(
                        run,
                        "memory_budget_exceeded",
                        null,
                        "The analysis needed more memory than a job may take on this server"
                                + budget.map(b -> " (" + (b >> 20) + " MiB)").orElse("")
                                + " and was stopped; a shorter video needs less.");
                return;
            }
            var late = JobDeadline.passedIn(e);
            if (late.isPresent()) {
                LOG.warn("analysis job {} passed its deadline", jobId);
                jobs.fail(
                        run,
                        "deadline_exceeded",
                        null,
                        "The analysis took longer than its deadline of "
                                + late.get().toSeconds()
                                + " s and was stopped; the server may be overloaded. Try again later.");
                return;
            }
            LOG.error("analysis job {} failed", jobId, e);
            jobs.fail(
                    run,
                    "internal_error",
                    null,
                    "The analysis failed unexpectedly; the failure was logged. Try again later.");
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
}
