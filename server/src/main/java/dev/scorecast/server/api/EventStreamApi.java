package dev.scorecast.server.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.scorecast.engine.core.Ticker;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.NotFound;
import dev.scorecast.engine.style.GenreCatalog;
import dev.scorecast.server.analysis.AnalysisService;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.config.EventStreamSettings;
import dev.scorecast.server.execution.ExecutionService;
import dev.scorecast.server.jobs.JobChange;
import dev.scorecast.server.jobs.JobFeed;
import dev.scorecast.server.jobs.JobFeed.Snapshot;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code GET /sync/events?execution_id=...} (or {@code analysis_id=...}): a job's progress as
 * Server-Sent Events. A {@code progress} event at once and at every change (status, stage, whole
 * percent, message), a comment line as a heartbeat while nothing changes, and a last {@code status}
 * event carrying exactly what /sync/status answers, after which the stream ends. Each event's id
 * names the state it reports, so a client reconnecting with {@code Last-Event-ID} is sent only what
 * it has not seen; one that saw the final event gets 204, which tells EventSource to stop.
 *
 * <p>The handler runs on the request's virtual thread and waits on its {@link JobFeed.Watch}, which
 * holds no carrier thread; a client that left is found at the next write (a heartbeat at most), and
 * its slot and watch are let go whatever ended the stream.
 */
public final class EventStreamApi {
    public static final String PATH = "/sync/events";
    /** How long EventSource waits before it reconnects after a dropped connection. */
    private static final int RETRY_MILLIS = 2000;

    private final ExecutionService executions;
    private final AnalysisService analyses;
    private final JobFeed feed;
    private final StatusObjects statuses;
    private final EventStreamSettings settings;
    private final ObjectMapper mapper;
    private final StreamSlots slots;
    /** Times each stream's lifetime. */
    private final Ticker ticker;

    public EventStreamApi(
            ExecutionService executions,
            AnalysisService analyses,
            JobFeed feed,
            GenreCatalog genres,
            EventStreamSettings settings,
            ObjectMapper mapper,
            Ticker ticker) {
        this.executions = executions;
        this.analyses = analyses;
        this.feed = feed;
        this.statuses = new StatusObjects(
                analyses, executions, new Scoring(genres, executions), new JobViews(analyses, mapper));
        this.settings = settings;
        this.mapper = mapper;
        this.slots = new StreamSlots(settings.maxPerUser());
        this.ticker = ticker;
    }

    public void register(RoutesConfig routes) {
        routes.get(PATH, this::events);
    }

    /** Event streams open on this node. */
    public int open() {
        return slots.open();
    }

    private void events(Context ctx) throws IOException, InterruptedException {
        String executionId = blankToNull(ctx.queryParam("execution_id"));
        String analysisId = blankToNull(ctx.queryParam("analysis_id"));
        if ((executionId == null) == (analysisId == null)) {
            throw new InvalidParameter(
                    executionId == null ? "execution_id" : "analysis_id",
                    "Send one of execution_id (from /sync/execute)"
                            + " or analysis_id (from /sync/video_analysis) as a query parameter: " + PATH
                            + "?execution_id=...");
        }
        Principal owner = Authenticator.principal(ctx);
        String jobId = executionId != null
                ? executions
                        .byId(owner, executionId)
                        .orElseThrow(() -> new NotFound(
                                "execution_id",
                                "No execution " + executionId
                                        + " exists for this API key; use the execution_id from /sync/execute."))
                        .job()
                        .id()
                : analyses.byId(owner, analysisId).job().id();
        String seen = Optional.ofNullable(ctx.header("Last-Event-ID")).orElse(ctx.queryParam("last_event_id"));
        slots.enter(owner.user());
        try (JobFeed.Watch watch = feed.watch(jobId)) {
            Optional<Snapshot> next = watch.next(Duration.ZERO);
            if (next.isPresent()
                    && next.get().status().isDone()
                    && id(next.get()).equals(seen)) {
                ctx.status(204); // The client has the final event already: EventSource stops on a 204.
                return;
            }
            HttpServletResponse res = ctx.res();
            res.setStatus(200);
            res.setContentType("text/event-stream;charset=utf-8");
            res.setHeader("Cache-Control", "no-store");
            res.setHeader("X-Accel-Buffering", "no"); // nginx: pass each event on at once
            OutputStream out = res.getOutputStream();
            write(out, "retry: " + RETRY_MILLIS + "\n\n");
            long endAt = ticker.nanos() + settings.maxLifetime().toNanos();
            while (true) {
                if (next.isPresent()) {
                    Snapshot state = next.get();
                    String id = id(state);
                    if (state.status().isDone()) {
                        if (!id.equals(seen)) {
                            write(out, event(id, "status", mapper.writeValueAsString(statuses.ofJob(owner, jobId))));
                        }
                        return;
                    }
                    if (!id.equals(seen)) {
                        write(out, event(id, "progress", progress(state, executionId, analysisId)));
                        seen = id;
                    }
                } else {
                    write(out, ": heartbeat\n\n");
                }
                if (ticker.nanos() - endAt > 0) {
                    return; // EventSource connects again, with the last id it got.
                }
                next = watch.next(settings.heartbeat());
            }
        } catch (IOException gone) {
            // The client left; nothing to answer.
        } finally {
            slots.leave(owner.user());
        }
    }

    private String progress(Snapshot state, String executionId, String analysisId) throws IOException {
        ObjectNode data = mapper.createObjectNode().put("job_id", state.jobId());
        if (executionId != null) {
            data.put("kind", ExecutionService.KIND).put("execution_id", executionId);
        } else {
            data.put("kind", AnalysisService.KIND).put("analysis_id", analysisId);
        }
        data.put("status", state.status().wire())
                .put("stage", stage(state))
                .put("percent", JobChange.percentOf(state.progress()))
                .put("progress", state.progress())
                .put("message", state.message());
        return mapper.writeValueAsString(data);
    }

    /** The stage running; a job still waiting for a worker is queued. */
    private static String stage(Snapshot state) {
        return state.stage() != null ? state.stage() : "queued";
    }

    /** The event id: the state it reports, so that the same state is never sent twice to a client that says it has it. */
    static String id(Snapshot state) {
        return state.status().isDone()
                ? state.status().wire()
                : state.status().wire() + "-" + stage(state) + "-" + JobChange.percentOf(state.progress());
    }

    private static String event(String id, String name, String json) {
        var text = new StringBuilder(json.length() + 64)
                .append("id: ")
                .append(id)
                .append("\nevent: ")
                .append(name)
                .append('\n');
        for (String line : json.split("\n")) {
            text.append("data: ").append(line).append('\n');
        }
        return text.append('\n').toString();
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
