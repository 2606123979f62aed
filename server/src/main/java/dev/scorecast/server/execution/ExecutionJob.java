package dev.scorecast.server.execution;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.scorecast.engine.error.ScorecastException;
import dev.scorecast.engine.io.Directories;
import dev.scorecast.engine.pipeline.Execution;
import dev.scorecast.engine.pipeline.Execution.Stage;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.PlanJson;
import dev.scorecast.engine.render.SoundBank;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import dev.scorecast.server.downloads.DownloadLinks;
import dev.scorecast.server.jobs.Job;
import dev.scorecast.server.jobs.JobDeadline;
import dev.scorecast.server.jobs.JobMemory;
import dev.scorecast.server.jobs.JobRepository;
import dev.scorecast.server.jobs.JobStatus;
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
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's side of an execution: runs the job {@link ExecutionService#start} queued. Built
 * before the job runner (whose task it is), so the service that queues jobs gets the runner in its
 * constructor.
 */
public final class ExecutionJob {
    private static final Logger LOG = LoggerFactory.getLogger(ExecutionJob.class);

    private final Database database;
    private final BlobStore blobs;
    private final UploadService uploads;
    private final AnalysisFiles analyses;
    private final JobRepository jobs;
    private final Supplier<SoundBank> soundBank;
    private final DownloadLinks links;
    private final QuotaGuard quotas;
    private final ObjectMapper mapper;
    private final Path workRoot;
    private final Clock clock;

    public ExecutionJob(
            Database database,
            BlobStore blobs,
            UploadService uploads,
            JobRepository jobs,
            Supplier<SoundBank> soundBank,
            DownloadLinks links,
            QuotaGuard quotas,
            ObjectMapper mapper,
            Path workRoot,
            Clock clock) {
        this.database = database;
        this.blobs = blobs;
        this.uploads = uploads;
        this.analyses = new AnalysisFiles(blobs, mapper);
        this.jobs = jobs;
        this.soundBank = soundBank;
        this.links = links;
        this.quotas = quotas;
        this.mapper = mapper;
        this.workRoot = workRoot;
        this.clock = clock;
    }

    /**
     * Runs one execution job. Safe to repeat while it is unfinished, and safe beside another run of
     * the same job (a worker that took it over while this one was paused or cut off from the
     * database): each run works in its own directory and publishes under its own prefix
     * ({@code executions/<id>/out-<run>}), and only the run whose token the job holds switches the
     * execution's {@code outputs} to its prefix and ends the job, in one transaction; a superseded run
     * stops at its next progress report and removes what it made. A job that ended is left as it is.
     */
    public void run(String jobId) {
        Job job = jobs.findForWorker(jobId).orElse(null);
        ExecutionRecord record = database.query(
                        c -> Rows.one(c, "SELECT * FROM executions WHERE job_id = ?", ExecutionService::record, jobId))
                .orElse(null);
        if (job == null || record == null) {
            LOG.warn("execution job {} no longer exists; nothing to run", jobId);
            return;
        }
        if (job.status() == JobStatus.FINISHED || job.status() == JobStatus.ERROR) {
            // A queue may hand a job out twice (a retry after a crash that came after the end): never run it over its
            // outputs.
            LOG.warn(
                    "execution job {} already ended as {}; not run again",
                    jobId,
                    job.status().wire());
            return;
        }
        JobRepository.Run run =
                jobs.start(jobId, Stage.COMPOSE.wire(), "Composing.").orElse(null);
        if (run == null) {
            return;
        }
        Principal owner = new Principal(job.owner());
        AtomicReference<Stage> stage = new AtomicReference<>(Stage.COMPOSE);
        Path work = workRoot.resolve(record.id() + "-" + run.token());
        String prefix = outputsPrefix(record.id(), run);
        BlobStore.Staged source = null;
        BlobStore.Staged audio = null;
        try {
            Video video = uploads.video(owner, record.videoId());
            Plan plan = readPlan(record.planKey());
            // The muxer and the mixer need files: staged from the store into this node's scratch space, removed after.
            source = blobs.stage(video.storedAs());
            audio = video.audioStoredAs() == null ? null : blobs.stage(video.audioStoredAs());
            var inputs = new Execution.Inputs(
                    source.path(),
                    Optional.ofNullable(audio).map(BlobStore.Staged::path),
                    analyses.stored(record.analysisKey()),
                    plan,
                    title(video.fileName()));
            var throttle = new ProgressThrottle(fraction ->
                    jobs.report(run, Math.min(0.99, fraction), stage.get().wire(), message(stage.get())));
            Directories.deleteTree(work);
            JobDeadline deadline = JobDeadline.forVideo(video.duration(), clock);
            // The links results.json carries are made by no request: they carry the key that started the execution.
            new Execution(soundBank.get())
                    .run(inputs, work, ExecutionService.linksFor(links, record), (s, fraction) -> {
                        // Stages only move on: the master's last pass still reports while the mux has started.
                        Stage was = stage.getAndAccumulate(s, (a, b) -> b.ordinal() > a.ordinal() ? b : a);
                        deadline.check();
                        if (s.ordinal() > was.ordinal()) {
                            // A new stage is written at once (progress events show it), not at the next percent.
                            jobs.progress(jobId, JobStatus.PROCESSING, Math.min(0.99, fraction), s.wire(), message(s));
                        }
                        throttle.accept(fraction);
                    });
            List<Path> outputs;
            try (var files = Files.list(work)) {
                outputs = files.filter(Files::isRegularFile).toList();
            }
            charge(owner, record.id(), prefix, outputs);
            for (Path file : outputs) {
                blobs.moveIn(prefix + "/" + file.getFileName(), file);
            }
            // The switch: the outputs named and the job ended in one step, by the run the job is still with.
            database.transaction(c -> {
                jobs.finish(c, run, Stage.OUTPUTS.wire(), "Finished: the video with its new music is ready.");
                return Rows.update(
                        c, "UPDATE executions SET outputs = ?, failure_key = NULL WHERE id = ?", prefix, record.id());
            });
            removeOtherRuns(record.id(), prefix);
        } catch (Throwable e) {
            if (Superseded.in(e)) {
                LOG.warn(
                        "execution job {}: run {} was superseded by another run; it stops and removes what it made",
                        jobId,
                        run.token());
                removeRun(record.id(), prefix);
                return;
            }
            removeRun(record.id(), prefix);
            // The database or the store away under the run (a restart, a pause): it runs again later, it did not fail.
            Unavailable.rethrowIfUnavailable(e, "execution", jobId);
            if (e instanceof ScorecastException failure) {
                fail(
                        record,
                        run,
                        stage.get(),
                        failure.code(),
                        failure.field(),
                        failure.getMessage(),
                        whatToChange(failure));
                return;
            }
            // This node stopping under the job is not its fault: it stays unfinished and runs again on the next worker.
            Stopping.rethrowIfStopping(e, "execution", jobId);
            // Any failure at all ends the job with a report: an Error left to the queue would be retried without end.
            var budget = JobMemory.exceededIn(e);
            if (budget.isPresent() || e instanceof OutOfMemoryError) {
                LOG.warn(
                        "execution job {} went over its memory budget in stage {}",
                        jobId,
                        stage.get().wire(),
                        e);
                fail(
                        record,
                        run,
                        stage.get(),
                        "memory_budget_exceeded",
                        null,
                        "The execution needed more memory than a job may take on"
                                + " this server"
                                + budget.map(b -> " (" + (b >> 20) + " MiB)").orElse("") + " and was stopped in the "
                                + stage.get().wire() + " stage.",
                        "Make the plan lighter (fewer voiceover lines and lyrics, no stems), or score a shorter video.");
                return;
            }
            var late = JobDeadline.passedIn(e);
            if (late.isPresent()) {
                LOG.warn(
                        "execution job {} passed its deadline in stage {}",
                        jobId,
                        stage.get().wire());
                fail(
                        record,
                        run,
                        stage.get(),
                        "deadline_exceeded",
                        null,
                        "The execution took longer than its deadline of "
                                + late.get().toSeconds() + " s and was stopped in the "
                                + stage.get().wire() + " stage.",
                        "The server may be overloaded; run /sync/execute again later, and report it if it fails again.");
                return;
            }
            LOG.error("execution job {} failed in stage {}", jobId, stage.get().wire(), e);
            fail(
                    record,
                    run,
                    stage.get(),
                    "internal_error",
                    null,
                    "The " + stage.get().wire() + " stage failed unexpectedly; the failure was logged.",
                    "Nothing in the request is known to be wrong; run /sync/execute again, and report it if it fails again.");
        } finally {
            try {
                if (source != null) {
                    source.close();
                }
                if (audio != null) {
                    audio.close();
                }
                Directories.deleteTree(work);
            } catch (UncheckedIOException e) {
                LOG.warn("could not remove the work directory {}", work, e);
            }
        }
    }

    /** Where run {@code run} of execution {@code executionId} publishes its outputs. */
    static String outputsPrefix(String executionId, JobRepository.Run run) {
        return "executions/" + executionId + "/out-" + run.token();
    }

    /** Removes what a run that did not publish wrote under {@code prefix}, and its charges. */
    private void removeRun(String executionId, String prefix) {
        try {
            blobs.deleteTree(prefix);
            database.transaction(c -> {
                quotas.releaseExecution(c, executionId, prefix);
                return null;
            });
        } catch (RuntimeException e) {
            LOG.warn("could not remove {} (retention will): {}", prefix, e.toString());
        }
    }

    /** After publishing {@code published}: what earlier runs of the execution left (cut off by a crash) goes, with its charges. */
    private void removeOtherRuns(String executionId, String published) {
        Set<String> prefixes = new TreeSet<>();
        String root = "executions/" + executionId;
        blobs.list(root, (key, at) -> {
            String rest = key.substring(root.length() + 1);
            int slash = rest.indexOf('/');
            if (slash > 0 && (rest.startsWith("out-") || rest.startsWith("out/"))) {
                prefixes.add(root + "/" + rest.substring(0, slash));
            }
        });
        prefixes.remove(published);
        prefixes.forEach(p -> removeRun(executionId, p));
    }

    /**
     * Counts the outputs in the owner's share before they are stored: past the quota the job ends
     * {@code insufficient_storage} and nothing is stored.
     */
    private void charge(Principal owner, String executionId, String prefix, List<Path> outputs) throws IOException {
        List<Stored> items = new ArrayList<>();
        for (Path file : outputs) {
            items.add(Stored.forExecution(executionId, prefix + "/" + file.getFileName(), Files.size(file)));
        }
        database.transaction(c -> {
            quotas.lockUser(c, owner);
            quotas.releaseExecution(c, executionId, prefix);
            long total = items.stream().mapToLong(Stored::bytes).sum();
            quotas.requireRoomFor(c, owner, total, null);
            for (Stored item : items) {
                quotas.chargeAnyway(c, owner, item);
            }
            return null;
        });
    }

    /** Ends the run's job {@code error} with a report, unless the job is no longer the run's (then nothing is written). */
    private void fail(
            ExecutionRecord record,
            JobRepository.Run run,
            Stage stage,
            String code,
            String field,
            String message,
            String change) {
        if (!jobs.current(run)) {
            LOG.warn(
                    "execution job {}: run {} failed ({}) but the job is no longer its own; nothing written",
                    record.jobId(),
                    run.token(),
                    code);
            return;
        }
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("execution_id", record.id());
        report.put("stage", stage.wire());
        report.put("error", code);
        report.put("field", field);
        report.put("message", message);
        report.put("what_to_change", change);
        String key = "executions/" + record.id() + "/failure.json";
        byte[] json;
        try {
            json = mapper.writerWithDefaultPrettyPrinter().writeValueAsBytes(report);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        blobs.write(key, new ByteArrayInputStream(json), Long.MAX_VALUE, "failure", false);
        // A report of a few hundred bytes is kept whatever the quota: the client must learn why the run failed.
        database.transaction(c -> {
            quotas.chargeAnyway(c, new Principal(record.owner()), Stored.forExecution(record.id(), key, json.length));
            return Rows.update(c, "UPDATE executions SET failure_key = ? WHERE id = ?", key, record.id());
        });
        jobs.fail(run, code, field, message);
    }

    private static String whatToChange(ScorecastException e) {
        return e.field() == null
                ? "See the message."
                : "Change " + e.field() + " as the message says, then generate or execute again.";
    }

    private static String message(Stage stage) {
        return switch (stage) {
            case COMPOSE -> "Speaking the voiceover and composing.";
            case RENDER -> "Synthesising the instruments.";
            case VOICES -> "Singing the vocals.";
            case MASTER -> "Mixing and mastering.";
            case MUX -> "Putting the music into the video.";
            case OUTPUTS -> "Writing the outputs.";
        };
    }

    /** The production's name in the editor's timeline and cue sheet: the client's file name without its extension. */
    static String title(String fileName) {
        if (fileName == null) {
            return null;
        }
        String name = fileName.replaceFirst("\\.[^.]{1,8}$", "").strip();
        return name.length() > 200 ? name.substring(0, 200) : name;
    }

    private Plan readPlan(String key) throws IOException {
        try (InputStream in = blobs.open(key)) {
            return PlanJson.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }
}
