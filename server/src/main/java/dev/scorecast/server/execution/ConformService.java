package dev.scorecast.server.execution;

import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.analysis.Cut;
import dev.scorecast.engine.conform.Conformer;
import dev.scorecast.engine.conform.ShotMatcher;
import dev.scorecast.engine.conform.Signatures;
import dev.scorecast.engine.error.NotFound;
import dev.scorecast.engine.error.WrongState;
import dev.scorecast.engine.media.FfmpegFrameSource;
import dev.scorecast.engine.media.MediaLimits;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.PlanValidator;
import dev.scorecast.engine.style.GenreCatalog;
import dev.scorecast.server.analysis.AnalysisService;
import dev.scorecast.server.analysis.AnalysisService.AnalysisState;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.jobs.JobStatus;
import dev.scorecast.server.storage.BlobStore;
import dev.scorecast.server.upload.UploadService;
import dev.scorecast.server.upload.Video;
import java.util.List;
import java.util.Map;

/**
 * Follows a re-cut (issue 27, {@code POST /sync/conform}): finds each shot of the new cut's video in
 * the video an earlier execution scored, by the pictures of both, and keeps a plan that plays the
 * kept shots' music again (engine.conform). The plan is executed like any other.
 */
public final class ConformService {
    /** Pictures this small tell shots apart and are quick to decode. */
    static final int SIGNATURE_PIXELS = 48;

    private final AnalysisService analyses;
    private final ExecutionService executions;
    private final PlanService plans;
    private final UploadService uploads;
    private final BlobStore blobs;
    private final GenreCatalog genres;

    public ConformService(
            AnalysisService analyses,
            ExecutionService executions,
            PlanService plans,
            UploadService uploads,
            BlobStore blobs,
            GenreCatalog genres) {
        this.analyses = analyses;
        this.executions = executions;
        this.plans = plans;
        this.uploads = uploads;
        this.blobs = blobs;
        this.genres = genres;
    }

    /** The stored plan for the new cut and what happened to every span of the old one. */
    public record Result(StoredPlan plan, List<Conformer.ConformSpan> spans) {}

    public Result conform(Principal owner, String analysisId, String executionId) {
        AnalysisState analysis = analyses.byId(owner, analysisId);
        if (analysis.job().status() != JobStatus.FINISHED) {
            throw new WrongState(
                    "analysis_id",
                    "Analysis " + analysisId + " is " + analysis.job().status().wire()
                            + "; poll /sync/status with its job_id until it is finished, then conform.",
                    Map.of(
                            "status",
                            analysis.job().status().wire(),
                            "job_id",
                            analysis.job().id()));
        }
        var execution = executions
                .byId(owner, executionId)
                .orElseThrow(
                        () -> new NotFound(
                                "execution_id",
                                "No execution " + executionId
                                        + " exists for this API key; use the execution_id /sync/execute answered for the earlier cut."));
        if (execution.job().status() != JobStatus.FINISHED) {
            throw new WrongState(
                    "execution_id",
                    "Execution " + executionId + " is "
                            + execution.job().status().wire()
                            + "; conform follows a finished execution: wait until /sync/status says finished, or pick another.",
                    Map.of(
                            "status",
                            execution.job().status().wire(),
                            "job_id",
                            execution.job().id()));
        }
        Plan old = plans.plan(execution.record().planKey());
        Analysis oldAnalysis = plans.analysis(execution.record().analysisKey());
        Analysis newAnalysis = plans.analysis(analysis.record().resultKey());
        Video oldVideo = uploads.video(owner, execution.record().videoId());
        Video newVideo = uploads.video(owner, analysis.record().videoId());
        var oldShots =
                ShotMatcher.shots(cutTimes(oldAnalysis), oldAnalysis.video().duration());
        var newShots =
                ShotMatcher.shots(cutTimes(newAnalysis), newAnalysis.video().duration());
        var matches = ShotMatcher.match(oldShots, signatures(oldVideo), newShots, signatures(newVideo));
        var conformed = Conformer.conform(
                old,
                oldShots,
                matches,
                cutTimes(newAnalysis),
                newAnalysis.video().duration());
        Plan plan = PlanValidator.validate(conformed.plan(), newAnalysis.video().duration(), genres);
        return new Result(plans.keep(owner, newVideo.id(), analysis.record().resultKey(), plan), conformed.spans());
    }

    static List<Double> cutTimes(Analysis analysis) {
        return analysis.cuts().stream().map(Cut::time).toList();
    }

    private Signatures signatures(Video video) {
        try (BlobStore.Staged staged = blobs.stage(video.storedAs());
                FfmpegFrameSource source =
                        FfmpegFrameSource.open(staged.path(), MediaLimits.DEFAULT, SIGNATURE_PIXELS)) {
            return Signatures.read(source);
        }
    }
}
