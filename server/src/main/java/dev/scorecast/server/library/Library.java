package dev.scorecast.server.library;

import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A user's videos, newest first, each with its analyses and executions and their job states (read-only). */
public final class Library {
    /** The most videos one answer lists. */
    public static final int MAX_VIDEOS = 100;

    private final Database database;

    public Library(Database database) {
        this.database = database;
    }

    public record Job(String id, String jobId, String status, double progress, String message, Instant createdAt) {}

    public record Entry(
            String videoId,
            String fileName,
            double duration,
            int width,
            int height,
            boolean hasAudio,
            Instant createdAt,
            List<Job> analyses,
            List<Job> executions) {}

    public List<Entry> of(Principal owner) {
        return database.query(c -> {
            Map<String, Entry> videos = new LinkedHashMap<>();
            for (Entry v : Rows.list(
                    c,
                    "SELECT id, file_name, duration, width, height, has_audio, created_at FROM videos WHERE owner = ?"
                            + " ORDER BY created_at DESC, id LIMIT " + MAX_VIDEOS,
                    row -> new Entry(
                            row.getString("id"),
                            row.getString("file_name"),
                            row.getDouble("duration"),
                            row.getInt("width"),
                            row.getInt("height"),
                            row.getInt("has_audio") != 0,
                            Instant.ofEpochMilli(row.getLong("created_at")),
                            new ArrayList<>(),
                            new ArrayList<>()),
                    owner.user())) {
                videos.put(v.videoId(), v);
            }
            if (videos.isEmpty()) {
                return List.of();
            }
            String jobs = " JOIN jobs j ON j.id = x.job_id WHERE x.owner = ? ORDER BY x.created_at, x.id";
            for (Object[] a : Rows.list(
                    c,
                    "SELECT x.video_id, x.id, x.job_id, j.status, j.progress, j.message, x.created_at FROM analyses x"
                            + jobs,
                    Library::job,
                    owner.user())) {
                add(videos, a, false);
            }
            for (Object[] e : Rows.list(
                    c,
                    "SELECT x.video_id, x.id, x.job_id, j.status, j.progress, j.message, x.created_at FROM executions x"
                            + jobs,
                    Library::job,
                    owner.user())) {
                add(videos, e, true);
            }
            return List.copyOf(videos.values());
        });
    }

    private static Object[] job(ResultSet row) throws SQLException {
        return new Object[] {
            row.getString(1),
            new Job(
                    row.getString(2),
                    row.getString(3),
                    row.getString(4),
                    row.getDouble(5),
                    row.getString(6),
                    Instant.ofEpochMilli(row.getLong(7)))
        };
    }

    private static void add(Map<String, Entry> videos, Object[] row, boolean execution) {
        Entry video = videos.get((String) row[0]);
        if (video != null) {
            (execution ? video.executions() : video.analyses()).add((Job) row[1]);
        }
    }
}
