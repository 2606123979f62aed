package dev.scorecast.server.retention;

import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import dev.scorecast.server.storage.BlobStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;

/**
 * Rows and files as the services leave them, written straight to the database and the store at
 * chosen (virtual) times: retention and the orphan sweep read nothing else.
 */
record Seed(Database database, BlobStore blobs, Path files) {

    /** A completed upload and its video (its source file and audio), made at {@code at}. */
    void video(String owner, String uploadId, String videoId, Instant at) {
        database.query(c -> {
            Rows.update(c, """
                    INSERT INTO uploads (id, owner, variant, file_name, state, video_id, created_at, updated_at, expires_at)
                    VALUES (?, ?, 'A', 'v.mp4', 'complete', ?, ?, ?, ?)""", uploadId, owner, videoId, ms(at), ms(at), ms(at));
            return Rows.update(
                    c,
                    """
                    INSERT INTO videos (id, owner, upload_id, file_name, stored_as, size, crc32c, container, video_codec, duration,
                                        width, height, fps, frames, rotation, has_audio, audio_codec, audio_stored_as, created_at)
                    VALUES (?, ?, ?, 'v.mp4', ?, 4, '00000000', 'mp4', 'h264', 10, 640, 360, 25, 250, 0, 1, 'aac', ?, ?)""",
                    videoId,
                    owner,
                    uploadId,
                    "videos/" + videoId + "/source",
                    "videos/" + videoId + "/audio.wav",
                    ms(at));
        });
        file("videos/" + videoId + "/source", at);
        file("videos/" + videoId + "/audio.wav", at);
    }

    /** An upload still taking chunks, with one chunk. */
    void activeUpload(String owner, String uploadId, Instant at) {
        database.query(c -> Rows.update(c, """
                INSERT INTO uploads (id, owner, variant, file_name, state, created_at, updated_at, expires_at)
                VALUES (?, ?, 'A', 'v.mp4', 'active', ?, ?, ?)""", uploadId, owner, ms(at), ms(at), ms(at) + 86_400_000L));
        database.query(c -> Rows.update(c, """
                INSERT INTO upload_chunks (upload_id, idx, chunk_id, size, crc32c, total, stored_as, received_at)
                VALUES (?, 0, 'chk', 1, '0', NULL, ?, ?)""", uploadId, "uploads/" + uploadId + "/0-chk", ms(at)));
        file("uploads/" + uploadId + "/0-chk", at);
    }

    /** An analysis of {@code videoId} whose job ended (or not) at {@code jobUpdated}. */
    void analysis(String owner, String analysisId, String videoId, String status, Instant created, Instant jobUpdated) {
        String job = "job_" + analysisId;
        job(owner, job, "analysis", videoId, status, created, jobUpdated);
        database.query(c -> Rows.update(
                c,
                "INSERT INTO analyses (id, owner, video_id, job_id, result_key, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                analysisId,
                owner,
                videoId,
                job,
                "analyses/" + analysisId + "/analysis.json",
                ms(created)));
        file("analyses/" + analysisId + "/analysis.json", jobUpdated);
    }

    void plan(String owner, String planId, String videoId, String analysisKey, Instant at) {
        database.query(c -> Rows.update(
                c,
                "INSERT INTO plans (id, owner, video_id, analysis_key, plan_key, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                planId,
                owner,
                videoId,
                analysisKey,
                "plans/" + planId + ".json",
                ms(at)));
        file("plans/" + planId + ".json", at);
        if (analysisKey.startsWith("plans/analyses/")) {
            file(analysisKey, at);
        }
    }

    /** An execution whose job is {@code status} since {@code jobUpdated}, with its input and (when finished) outputs. */
    void execution(
            String owner,
            String executionId,
            String videoId,
            String analysisKey,
            String status,
            Instant created,
            Instant jobUpdated) {
        String job = "job_" + executionId;
        job(owner, job, "execution", executionId, status, created, jobUpdated);
        database.query(c -> Rows.update(
                c,
                """
                INSERT INTO executions (id, owner, job_id, video_id, plan_key, analysis_key, outputs, failure_key, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?)""",
                executionId,
                owner,
                job,
                videoId,
                "executions/" + executionId + "/input/plan.json",
                analysisKey,
                status.equals("finished") ? "executions/" + executionId + "/out" : null,
                ms(created)));
        file("executions/" + executionId + "/input/plan.json", created);
        if (status.equals("finished")) {
            file("executions/" + executionId + "/out/video.mp4", jobUpdated);
        }
    }

    private void job(
            String owner, String id, String kind, String subject, String status, Instant created, Instant updated) {
        database.query(c -> Rows.update(c, """
                INSERT INTO jobs (id, owner, kind, subject_id, status, progress, message, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, 1, 'seeded', ?, ?)""", id, owner, kind, subject, status, ms(created), ms(updated)));
    }

    /** A blob written through the store, then dated {@code at} as if written then. */
    void file(String key, Instant at) {
        blobs.write(key, new ByteArrayInputStream(key.getBytes(StandardCharsets.UTF_8)), Long.MAX_VALUE, "file", false);
        touch(files.resolve(key), at);
    }

    static void touch(Path path, Instant at) {
        try {
            Files.setLastModifiedTime(path, FileTime.from(at));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    boolean exists(String key) {
        return Files.exists(files.resolve(key));
    }

    long count(String sql, Object... args) {
        return database.query(c -> Rows.one(c, sql, row -> row.getLong(1), args).orElseThrow());
    }

    private static long ms(Instant at) {
        return at.toEpochMilli();
    }
}
