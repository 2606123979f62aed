package dev.scorecast.server.api;

import dev.scorecast.engine.error.NotFound;
import dev.scorecast.server.analysis.AnalysisService;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.downloads.DownloadLinks;
import dev.scorecast.server.execution.ExecutionService;
import java.time.Duration;
import java.util.Optional;

/**
 * Signed links to one job's {@code GET /sync/events}, handed out with the job (the {@code events_url}
 * of /sync/video_analysis and /sync/execute): a browser's EventSource cannot send an Authorization
 * header, so the link carries an expiring signature instead, as download and stream links do. It
 * opens that one job's events and nothing else, for {@link #LIFETIME}; an EventSource reconnecting
 * with it after that gets 401 and the page falls back to polling.
 */
public final class EventLinks {
    public static final Duration LIFETIME = Duration.ofHours(1);

    private final DownloadLinks links;
    private final ExecutionService executions;
    private final AnalysisService analyses;

    public EventLinks(DownloadLinks links, ExecutionService executions, AnalysisService analyses) {
        this.links = links;
        this.executions = executions;
        this.analyses = analyses;
    }

    String forExecution(String executionId) {
        return links.keyedLink(EventStreamApi.PATH, "execution_id=" + executionId, signedPath(executionId), LIFETIME);
    }

    String forAnalysis(String analysisId) {
        return links.keyedLink(EventStreamApi.PATH, "analysis_id=" + analysisId, signedPath(analysisId), LIFETIME);
    }

    /** The owner of the job a signed link opens; empty when the signature is wrong, expired or names nothing. */
    Optional<Principal> verify(String executionId, String analysisId, String expires, String key, String signature) {
        if ((executionId == null) == (analysisId == null)) {
            return Optional.empty();
        }
        String id = executionId != null ? executionId : analysisId;
        try {
            links.verify(signedPath(id), expires, key, signature);
        } catch (NotFound e) {
            return Optional.empty();
        }
        return executionId != null ? executions.ownerOf(executionId) : analyses.ownerOf(analysisId);
    }

    private static String signedPath(String id) {
        return EventStreamApi.PATH + "/" + id;
    }
}
