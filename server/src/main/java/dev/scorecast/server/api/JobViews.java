package dev.scorecast.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.scorecast.engine.error.ScorecastException;
import dev.scorecast.server.analysis.AnalysisService;
import dev.scorecast.server.analysis.AnalysisService.AnalysisState;
import dev.scorecast.server.jobs.Job;
import java.io.IOException;
import java.io.UncheckedIOException;

/** How jobs look to clients of both variants. */
final class JobViews {
    private final AnalysisService analyses;
    private final ObjectMapper mapper;

    JobViews(AnalysisService analyses, ObjectMapper mapper) {
        this.analyses = analyses;
        this.mapper = mapper;
    }

    /** The analysis JSON of a finished job, or null while it is not finished. */
    JsonNode analysisOf(AnalysisState state) {
        if (state.record().resultKey() == null) {
            return null;
        }
        try {
            return mapper.readTree(analyses.resultJson(state));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The failure that stopped a job, rebuilt so it is answered as the original refusal would be. */
    static RuntimeException failure(Job job) {
        return ScorecastException.restore(job.errorCode(), job.errorField(), job.message())
                .<RuntimeException>map(e -> e)
                .orElseGet(() -> new IllegalStateException("job " + job.id() + " failed: " + job.message()));
    }
}
