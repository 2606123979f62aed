package dev.scorecast.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.scorecast.server.analysis.AnalysisService;
import dev.scorecast.server.analysis.AnalysisService.AnalysisState;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.execution.ExecutionService;
import dev.scorecast.server.execution.ExecutionService.ExecutionState;
import dev.scorecast.server.jobs.Job;
import dev.scorecast.server.jobs.JobStatus;
import java.util.Map;
import java.util.Optional;

/**
 * The object {@code POST /sync/status} answers for a job, in one place: the status call, the final
 * event of {@code GET /sync/events} and the {@code data} of a job's webhook all carry exactly it.
 */
final class StatusObjects {
    private final AnalysisService analyses;
    private final ExecutionService executions;
    private final Scoring scoring;
    private final JobViews views;

    StatusObjects(AnalysisService analyses, ExecutionService executions, Scoring scoring, JobViews views) {
        this.analyses = analyses;
        this.executions = executions;
        this.scoring = scoring;
        this.views = views;
    }

    /** {@code url}: the video when finished, the failure report after an error; {@code queryurl}: results.json. */
    record ExecutionStatus(
            String jobId,
            String kind,
            String status,
            double progress,
            String message,
            String error,
            String field,
            String executionId,
            String url,
            String queryurl,
            Map<String, String> links) {}

    /** {@code error} and {@code field} are set when the job failed; {@code analysis} once it finished. */
    record Status(
            String jobId,
            String kind,
            String status,
            double progress,
            String message,
            String error,
            String field,
            String analysisId,
            JsonNode analysis) {}

    record Inactive(String jobId, String status, String message) {}

    /** The status of {@code owner}'s job {@code jobId}, or the inactive answer when it has none by that id. */
    Object ofJob(Principal owner, String jobId) {
        return ofJob(owner, jobId, null)
                .orElseGet(() -> new Inactive(
                        jobId,
                        "inactive",
                        "There is no job " + jobId
                                + " for this API key; use the job_id from /sync/video_analysis or /sync/execute."));
    }

    /** As the status call answers it, with {@code as} (a snapshot taken earlier) for the job's own fields when not null. */
    Optional<Object> ofJob(Principal owner, String jobId, Job as) {
        Optional<ExecutionState> execution = executions.byJob(owner, jobId);
        if (execution.isPresent()) {
            return Optional.of(execution(
                    as == null
                            ? execution.get()
                            : new ExecutionState(execution.get().record(), as)));
        }
        return analyses.byJob(owner, jobId)
                .map(state -> analysis(as == null ? state : new AnalysisState(state.record(), as)));
    }

    ExecutionStatus execution(ExecutionState state) {
        Job job = state.job();
        return new ExecutionStatus(
                job.id(),
                job.kind(),
                job.status().wire(),
                job.progress(),
                job.message(),
                job.errorCode(),
                job.errorField(),
                state.record().id(),
                scoring.url(state),
                scoring.queryUrl(state),
                scoring.links(state));
    }

    Status analysis(AnalysisState state) {
        Job job = state.job();
        return new Status(
                job.id(),
                job.kind(),
                job.status().wire(),
                job.progress(),
                job.message(),
                job.errorCode(),
                job.errorField(),
                state.record().id(),
                job.status() == JobStatus.FINISHED ? views.analysisOf(state) : null);
    }
}
