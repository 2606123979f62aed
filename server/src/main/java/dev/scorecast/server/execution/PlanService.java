package dev.scorecast.server.execution;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.error.NotFound;
import dev.scorecast.engine.error.Unprocessable;
import dev.scorecast.engine.error.WrongState;
import dev.scorecast.engine.interchange.FrameRate;
import dev.scorecast.engine.interchange.MarkerFiles;
import dev.scorecast.engine.plan.AnalysisValidator;
import dev.scorecast.engine.plan.EditorMarker;
import dev.scorecast.engine.plan.GenerationOptions;
import dev.scorecast.engine.plan.MarkerArrangement;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.PlanJson;
import dev.scorecast.engine.plan.Planner;
import dev.scorecast.server.analysis.AnalysisService;
import dev.scorecast.server.analysis.AnalysisService.AnalysisState;
import dev.scorecast.server.auth.Ids;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import dev.scorecast.server.jobs.JobStatus;
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
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Step five: plans from analyses. Variant A names an analysis the server made; variant B sends the
 * analysis JSON itself (possibly edited), which is checked against the video before use. A video
 * keeps its newest plans ({@link dev.scorecast.server.config.Quotas#maxPlansPerVideo()}), so that
 * execute can name them and the analysis each came from; generating one more removes the oldest.
 * A plan and the analysis sent with it count in the owner's storage: refused (507) before they are
 * written when they would pass the quota or the disk is nearly full.
 */
public final class PlanService {
    /** An uploaded analysis may differ from the video's length by this much (container rounding). */
    private static final double DURATION_SLACK_SECONDS = 0.5;
    /** Where the analyses clients send with a plan are kept (one per plan). */
    static final String SENT_ANALYSES = "plans/analyses/";

    private final Database database;
    private final BlobStore blobs;
    private final AnalysisService analyses;
    private final UploadService uploads;
    private final Planner planner;
    private final MarkerArrangement markers;
    private final PlanningPool planning;
    private final AnalysisFiles analysisFiles;
    private final Clock clock;
    private final QuotaGuard quotas;

    public PlanService(
            Database database,
            BlobStore blobs,
            AnalysisService analyses,
            UploadService uploads,
            Planner planner,
            MarkerArrangement markers,
            PlanningPool planning,
            ObjectMapper mapper,
            QuotaGuard quotas,
            Clock clock) {
        this.markers = markers;
        this.database = database;
        this.quotas = quotas;
        this.blobs = blobs;
        this.analyses = analyses;
        this.uploads = uploads;
        this.planner = planner;
        this.planning = planning;
        this.analysisFiles = new AnalysisFiles(blobs, mapper);
        this.clock = clock;
    }

    /**
     * Variant A: a plan from the server's own analysis {@code analysisId}, which must have finished,
     * written to the editor's {@code marks} (docs/EDITING.md; empty for none).
     */
    public StoredPlan generate(
            Principal owner, String analysisId, GenerationOptions options, List<EditorMarker> marks) {
        AnalysisState state = analyses.byId(owner, analysisId);
        if (state.job().status() != JobStatus.FINISHED) {
            throw new WrongState(
                    "analysis_id",
                    "Analysis " + analysisId + " is " + state.job().status().wire()
                            + "; poll /sync/status with its job_id until it is finished, then generate.",
                    Map.of(
                            "status",
                            state.job().status().wire(),
                            "job_id",
                            state.job().id()));
        }
        Analysis analysis = analysisFiles.read(analyses.resultJson(state), "analysis_id");
        Plan plan = planning.run(() -> markers.apply(planner.plan(analysis, options), marks, fps(analysis)));
        return store(owner, state.record().videoId(), state.record().resultKey(), null, plan);
    }

    /**
     * Variant B: a plan from an analysis the client sent, for the completed upload's {@code video},
     * written to the editor's {@code marks} and the markers of {@code markersFile} (an EDL, FCPXML or
     * Premiere Pro marker list; null for none).
     */
    public StoredPlan generate(
            Principal owner,
            Video video,
            byte[] analysisJson,
            GenerationOptions options,
            List<EditorMarker> marks,
            byte[] markersFile) {
        Analysis analysis = AnalysisValidator.validate(analysisFiles.read(analysisJson, "analysis"), "analysis");
        checkBelongs(analysis, video);
        List<EditorMarker> all = new ArrayList<>(marks);
        if (markersFile != null) {
            all.addAll(MarkerFiles.read(
                    markersFile, FrameRate.of(fps(analysis)), analysis.video().duration(), "markers_file"));
        }
        Plan plan = planning.run(() -> markers.apply(planner.plan(analysis, options), all, fps(analysis)));
        // Written only once it planned, so a refused analysis leaves nothing behind.
        String key = SENT_ANALYSES + Ids.next("ana") + ".json";
        return store(owner, video.id(), key, analysisJson, plan);
    }

    /**
     * Keeps a plan made elsewhere (a re-cut's conformed plan, issue 27) for {@code videoId}, planned
     * from the analysis under {@code analysisKey}, as generate keeps its own.
     */
    public StoredPlan keep(Principal owner, String videoId, String analysisKey, Plan plan) {
        return store(owner, videoId, analysisKey, null, plan);
    }

    /**
     * The editor's markers in {@code file} (an EDL, FCPXML or Premiere Pro marker list), read at the
     * frame rate and length of the video of the finished analysis {@code analysisId}, for a client to
     * show and edit before generate (the studio's Markers card); nothing is stored.
     */
    public List<EditorMarker> readMarkers(Principal owner, String analysisId, byte[] file) {
        AnalysisState state = analyses.byId(owner, analysisId);
        if (state.job().status() != JobStatus.FINISHED) {
            throw new WrongState(
                    "analysis_id",
                    "Analysis " + analysisId + " is " + state.job().status().wire()
                            + "; poll /sync/status with its job_id until it is finished, then read markers.",
                    Map.of(
                            "status",
                            state.job().status().wire(),
                            "job_id",
                            state.job().id()));
        }
        Analysis analysis = analysisFiles.read(analyses.resultJson(state), "analysis_id");
        return MarkerFiles.read(
                file, FrameRate.of(fps(analysis)), analysis.video().duration(), "markers_file");
    }

    /** The plan stored under {@code key} (an execution's plan, as it ran). */
    public Plan plan(String key) {
        return readPlan(key);
    }

    public StoredPlan find(Principal owner, String planId) {
        return database.query(c -> Rows.one(
                        c,
                        "SELECT * FROM plans WHERE id = ? AND owner = ?",
                        row -> new StoredPlan(
                                row.getString("id"),
                                row.getString("owner"),
                                row.getString("video_id"),
                                row.getString("analysis_key"),
                                readPlan(row.getString("plan_key"))),
                        planId,
                        owner.user()))
                .orElseThrow(() -> new NotFound(
                        "plan_id",
                        "No plan " + planId + " exists for this API key; use the plan_id from /sync/generate."));
    }

    /** The analysis stored under {@code key}. */
    public Analysis analysis(String key) {
        return analysisFiles.stored(key);
    }

    /**
     * Keeps {@code generated} (and, for variant B, the analysis the client sent, {@code sentAnalysis},
     * under {@code analysisKey}): the owner's share and the disk are checked before anything is written,
     * then the files are written, then one transaction checks the share again (it cannot race there),
     * counts both, records the plan and removes the video's plans past the cap, whose files go after it.
     */
    private StoredPlan store(Principal owner, String videoId, String analysisKey, byte[] sentAnalysis, Plan generated) {
        Plan plan = generated.withId(Ids.next("plan"));
        String key = "plans/" + plan.id() + ".json";
        byte[] planJson = PlanJson.write(plan).getBytes(StandardCharsets.UTF_8);
        long incoming = planJson.length + (sentAnalysis == null ? 0 : sentAnalysis.length);
        String field = sentAnalysis == null ? "analysis_id" : "analysis";
        quotas.requireFreeDisk(incoming);
        database.query(c -> {
            quotas.requireRoomFor(c, owner, incoming, field);
            return null;
        });
        long now = clock.millis();
        List<String> trimmed;
        try {
            if (sentAnalysis != null) {
                blobs.write(analysisKey, new ByteArrayInputStream(sentAnalysis), Long.MAX_VALUE, "analysis", false);
            }
            blobs.write(key, new ByteArrayInputStream(planJson), Long.MAX_VALUE, "plan", false);
            trimmed = database.transaction(c -> {
                uploads.holdVideo(c, owner, videoId);
                if (sentAnalysis != null) {
                    quotas.charge(c, owner, Stored.forVideo(videoId, analysisKey, sentAnalysis.length), field);
                }
                quotas.charge(c, owner, Stored.forVideo(videoId, key, planJson.length), field);
                Rows.update(
                        c,
                        "INSERT INTO plans (id, owner, video_id, analysis_key, plan_key, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                        plan.id(),
                        owner.user(),
                        videoId,
                        analysisKey,
                        key,
                        now);
                return trimPlans(c, videoId);
            });
        } catch (RuntimeException e) {
            blobs.delete(key);
            if (sentAnalysis != null) {
                blobs.delete(analysisKey);
            }
            throw e;
        }
        trimmed.forEach(blobs::delete);
        return new StoredPlan(plan.id(), owner.user(), videoId, analysisKey, plan);
    }

    /**
     * Removes the plans of {@code videoId} past the newest {@code maxPlansPerVideo}, rows and charges;
     * answers their files, to delete once the transaction is committed. An analysis a client sent
     * with a removed plan stays while an execution still names it.
     */
    private List<String> trimPlans(Connection c, String videoId) throws SQLException {
        List<String[]> old = Rows.list(
                c,
                "SELECT id, plan_key, analysis_key FROM plans WHERE video_id = ? ORDER BY created_at DESC, id DESC",
                row -> new String[] {row.getString("id"), row.getString("plan_key"), row.getString("analysis_key")},
                videoId);
        List<String> files = new ArrayList<>();
        for (String[] p : old.subList(Math.min(old.size(), quotas.quotas().maxPlansPerVideo()), old.size())) {
            Rows.update(c, "DELETE FROM plans WHERE id = ?", p[0]);
            quotas.release(c, p[1]);
            files.add(p[1]);
            boolean sent = p[2].startsWith(SENT_ANALYSES);
            boolean used = Rows.one(
                            c,
                            "SELECT 1 AS used FROM executions WHERE video_id = ? AND analysis_key = ?",
                            row -> true,
                            videoId,
                            p[2])
                    .isPresent();
            if (sent && !used) {
                quotas.release(c, p[2]);
                files.add(p[2]);
            }
        }
        return files;
    }

    private Plan readPlan(String key) {
        try (InputStream in = blobs.open(key)) {
            return PlanJson.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The video's frame rate the markers snap to (25 when the analysis has none). */
    private static double fps(Analysis analysis) {
        return analysis.video().fps() > 0 && Double.isFinite(analysis.video().fps())
                ? analysis.video().fps()
                : 25;
    }

    private static void checkBelongs(Analysis analysis, Video video) {
        if (Math.abs(analysis.video().duration() - video.duration()) > DURATION_SLACK_SECONDS) {
            throw new Unprocessable(
                    "analysis",
                    "The analysis describes a video of " + analysis.video().duration()
                            + " s but this task's video lasts " + video.duration()
                            + " s; send the analysis of this taskid's video.");
        }
    }
}
