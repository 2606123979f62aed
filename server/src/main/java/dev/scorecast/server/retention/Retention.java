package dev.scorecast.server.retention;

import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import dev.scorecast.server.quota.QuotaGuard;
import dev.scorecast.server.storage.BlobStore;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes finished work older than the retention time, rows and files together: an execution that
 * ended that long ago (its outputs are the largest files), and a video nobody has used that long,
 * with its upload, analyses and plans. Failed work goes sooner ({@code keepFailed}): an execution
 * that ended in error, and an analysis superseded by its retry. Rows go first, in one transaction each; the files after. A
 * crash in between leaves files no row names, which {@link OrphanSweeper} removes later; the other
 * order would leave rows naming missing files.
 */
public final class Retention {
    private static final Logger LOG = LoggerFactory.getLogger(Retention.class);
    /** A video whose last use (its own upload, an analysis's job, a plan, an execution) is before the cut-off. */
    private static final String IDLE_VIDEO = """
            v.created_at < ?
            AND NOT EXISTS (SELECT 1 FROM analyses a JOIN jobs j ON j.id = a.job_id
                            WHERE a.video_id = v.id AND (j.updated_at >= ? OR j.status IN ('pending', 'processing')))
            AND NOT EXISTS (SELECT 1 FROM plans p WHERE p.video_id = v.id AND p.created_at >= ?)
            AND NOT EXISTS (SELECT 1 FROM executions e WHERE e.video_id = v.id)""";

    private final Database database;
    private final BlobStore blobs;
    private final QuotaGuard quotas;
    private final Clock clock;
    private final Duration keep;
    private final Duration keepFailed;

    /** Failed work kept as long as finished work. */
    public Retention(Database database, BlobStore blobs, QuotaGuard quotas, Clock clock, Duration keep) {
        this(database, blobs, quotas, clock, keep, keep);
    }

    /** {@code keepFailed}: how long an execution that ended in error and a superseded analysis are kept (at most {@code keep}). */
    public Retention(
            Database database, BlobStore blobs, QuotaGuard quotas, Clock clock, Duration keep, Duration keepFailed) {
        this.database = database;
        this.blobs = blobs;
        this.quotas = quotas;
        this.clock = clock;
        this.keep = keep;
        this.keepFailed = keepFailed.compareTo(keep) < 0 ? keepFailed : keep;
    }

    /** One sweep; what it removed. Executions go first, so a video whose last executions just went can go in the same sweep. */
    public Removed sweep() {
        if (keep.isZero()) {
            return new Removed(0, 0, 0);
        }
        // Read before any transaction: on SQLite a transaction holds the write lock, and nothing should wait inside it.
        long cutoff = clock.instant().minus(keep).toEpochMilli();
        long failedCutoff = clock.instant().minus(keepFailed).toEpochMilli();
        int executions = removeEndedExecutions(cutoff, failedCutoff);
        return new Removed(executions, removeIdleVideos(cutoff), removeSupersededAnalyses(failedCutoff));
    }

    private int removeEndedExecutions(long cutoff, long failedCutoff) {
        List<String[]> ended = database.query(c -> Rows.list(
                c, """
                SELECT e.id, e.job_id FROM executions e JOIN jobs j ON j.id = e.job_id
                WHERE (j.status = 'finished' AND j.updated_at < ?) OR (j.status = 'error' AND j.updated_at < ?)""", row -> new String[] {row.getString("id"), row.getString("job_id")}, cutoff, failedCutoff));
        int removed = 0;
        for (String[] execution : ended) {
            // Conditional on the same facts: the job's row cascades to the execution's (and to what it was charged).
            boolean gone = database.transaction(c -> Rows.update(
                            c,
                            "DELETE FROM jobs WHERE id = ? AND"
                                    + " ((status = 'finished' AND updated_at < ?) OR (status = 'error' AND updated_at < ?))",
                            execution[1],
                            cutoff,
                            failedCutoff)
                    == 1);
            if (gone) {
                removed++;
                deleteTree("executions/" + execution[0]);
            }
        }
        return removed;
    }

    private int removeIdleVideos(long cutoff) {
        List<String[]> idle = database.query(c -> Rows.list(
                c,
                "SELECT v.id, v.owner FROM videos v WHERE " + IDLE_VIDEO,
                row -> new String[] {row.getString("id"), row.getString("owner")},
                cutoff,
                cutoff,
                cutoff));
        int removed = 0;
        for (String[] video : idle) {
            VideoFiles files = database.transaction(c -> removeVideo(c, video[0], new Principal(video[1]), cutoff));
            if (files != null) {
                removed++;
                files.keys().forEach(this::delete);
                files.trees().forEach(this::deleteTree);
            }
        }
        return removed;
    }

    /**
     * The video's rows, if it is still idle; the files they named. The owner's lock first: a new
     * analysis or execution of this owner waits for it (or this for them), so either it finds the
     * video gone or this finds the new row and keeps the video.
     */
    private VideoFiles removeVideo(Connection c, String videoId, Principal owner, long cutoff) throws SQLException {
        quotas.lockUser(c, owner);
        var still = Rows.one(
                c,
                "SELECT v.upload_id FROM videos v WHERE v.id = ? AND " + IDLE_VIDEO,
                row -> row.getString("upload_id"),
                videoId,
                cutoff,
                cutoff,
                cutoff);
        if (still.isEmpty()) {
            return null;
        }
        String uploadId = still.get();
        List<String> keys = new ArrayList<>(Rows.list(
                c, "SELECT plan_key FROM plans WHERE video_id = ?", row -> row.getString("plan_key"), videoId));
        // A variant B analysis the client sent is kept per plan; the server's own analyses have their own directory.
        keys.addAll(Rows.list(
                c,
                "SELECT analysis_key FROM plans WHERE video_id = ? AND analysis_key LIKE 'plans/analyses/%'",
                row -> row.getString("analysis_key"),
                videoId));
        List<String> trees = new ArrayList<>(List.of("videos/" + videoId, "uploads/" + uploadId));
        trees.addAll(Rows.list(
                c, "SELECT id FROM analyses WHERE video_id = ?", row -> "analyses/" + row.getString("id"), videoId));
        List<String> jobs =
                Rows.list(c, "SELECT job_id FROM analyses WHERE video_id = ?", row -> row.getString("job_id"), videoId);
        // The upload's row cascades to its chunks, its video and the video's analyses and plans; the analyses' jobs go
        // by hand.
        Rows.update(c, "DELETE FROM uploads WHERE id = ?", uploadId);
        for (String job : jobs) {
            Rows.update(c, "DELETE FROM jobs WHERE id = ?", job);
        }
        return new VideoFiles(keys, trees);
    }

    /**
     * Analyses superseded by a retry before {@code failedCutoff} (their job failed), with their job
     * and files, unless a plan or an execution still names their result.
     */
    private int removeSupersededAnalyses(long failedCutoff) {
        List<String[]> superseded = database.query(c ->
                Rows.list(c, """
                SELECT id, owner FROM analyses WHERE superseded_at IS NOT NULL AND superseded_at < ?""", row -> new String[] {row.getString("id"), row.getString("owner")}, failedCutoff));
        int removed = 0;
        for (String[] analysis : superseded) {
            boolean gone = database.transaction(c -> {
                quotas.lockUser(c, new Principal(analysis[1]));
                var row = Rows.one(
                        c,
                        "SELECT job_id, result_key FROM analyses WHERE id = ? AND superseded_at < ?",
                        r -> new String[] {r.getString("job_id"), r.getString("result_key")},
                        analysis[0],
                        failedCutoff);
                if (row.isEmpty()) {
                    return false;
                }
                String result = row.get()[1];
                if (result != null
                        && (Rows.one(c, "SELECT 1 AS x FROM plans WHERE analysis_key = ?", r -> 1, result)
                                        .isPresent()
                                || Rows.one(c, "SELECT 1 AS x FROM executions WHERE analysis_key = ?", r -> 1, result)
                                        .isPresent())) {
                    return false;
                }
                Rows.update(c, "DELETE FROM analyses WHERE id = ?", analysis[0]);
                Rows.update(c, "DELETE FROM jobs WHERE id = ?", row.get()[0]);
                if (result != null) {
                    quotas.release(c, result);
                }
                return true;
            });
            if (gone) {
                removed++;
                deleteTree("analyses/" + analysis[0]);
            }
        }
        return removed;
    }

    private void delete(String key) {
        try {
            blobs.delete(key);
        } catch (UncheckedIOException e) {
            LOG.warn("could not remove {} (retention); the orphan sweep will: {}", key, e.getMessage());
        }
    }

    private void deleteTree(String prefix) {
        try {
            blobs.deleteTree(prefix);
        } catch (UncheckedIOException e) {
            LOG.warn("could not remove all of {} (retention); the orphan sweep will: {}", prefix, e.getMessage());
        }
    }

    private record VideoFiles(List<String> keys, List<String> trees) {}

    /** Executions, videos (each with its upload, analyses and plans) and superseded analyses removed by one sweep. */
    public record Removed(int executions, int videos, int analyses) {
        public Removed(int executions, int videos) {
            this(executions, videos, 0);
        }
    }
}
