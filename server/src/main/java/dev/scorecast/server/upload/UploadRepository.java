package dev.scorecast.server.upload;

import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.config.NodeIds;
import dev.scorecast.server.db.Rows;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** SQL for uploads, chunks and videos. Every lookup by id also matches the owner. */
final class UploadRepository {
    private final String forUpdate;
    private final Clock clock;

    /** Rows dated by {@code clock}, the upload service's (expiry and abandoned assemblies are measured on it). */
    UploadRepository(String forUpdate, Clock clock) {
        this.forUpdate = forUpdate;
        this.clock = clock;
    }

    void insert(Connection c, Upload upload) throws SQLException {
        Rows.update(
                c,
                """
                INSERT INTO uploads (id, owner, variant, file_name, file_size, media_type, total_chunks, state,
                                     video_id, created_at, updated_at, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                upload.id(),
                upload.owner(),
                upload.variant().name(),
                upload.fileName(),
                upload.fileSize(),
                upload.mediaType(),
                upload.totalChunks(),
                upload.state().wire(),
                upload.videoId(),
                upload.createdAt().toEpochMilli(),
                upload.createdAt().toEpochMilli(),
                upload.expiresAt().toEpochMilli());
    }

    Optional<Upload> find(Connection c, Principal owner, Variant variant, String id) throws SQLException {
        return Rows.one(
                c,
                "SELECT * FROM uploads WHERE id = ? AND owner = ? AND variant = ?",
                UploadRepository::upload,
                id,
                owner.user(),
                variant.name());
    }

    /** The same lookup, holding the row until the transaction ends. */
    Optional<Upload> lock(Connection c, Principal owner, Variant variant, String id) throws SQLException {
        return Rows.one(
                c,
                "SELECT * FROM uploads WHERE id = ? AND owner = ? AND variant = ?" + forUpdate,
                UploadRepository::upload,
                id,
                owner.user(),
                variant.name());
    }

    void touch(Connection c, String id, Instant now, Instant expiresAt) throws SQLException {
        Rows.update(
                c,
                "UPDATE uploads SET updated_at = ?, expires_at = ? WHERE id = ?",
                now.toEpochMilli(),
                expiresAt.toEpochMilli(),
                id);
    }

    void setTotal(Connection c, String id, int total) throws SQLException {
        Rows.update(c, "UPDATE uploads SET total_chunks = ? WHERE id = ?", total, id);
    }

    void setState(Connection c, String id, UploadState state, String videoId) throws SQLException {
        Rows.update(
                c,
                "UPDATE uploads SET state = ?, video_id = ?, updated_at = ? WHERE id = ?",
                state.wire(),
                videoId,
                clock.millis(),
                id);
    }

    List<Chunk> chunks(Connection c, String uploadId) throws SQLException {
        return Rows.list(
                c, "SELECT * FROM upload_chunks WHERE upload_id = ? ORDER BY idx", UploadRepository::chunk, uploadId);
    }

    Optional<Chunk> chunk(Connection c, String uploadId, int index) throws SQLException {
        return Rows.one(
                c,
                "SELECT * FROM upload_chunks WHERE upload_id = ? AND idx = ?",
                UploadRepository::chunk,
                uploadId,
                index);
    }

    long bytesExcept(Connection c, String uploadId, int index) throws SQLException {
        return Rows.one(
                        c,
                        "SELECT COALESCE(SUM(size), 0) AS total FROM upload_chunks WHERE upload_id = ? AND idx <> ?",
                        row -> row.getLong("total"),
                        uploadId,
                        index)
                .orElse(0L);
    }

    void putChunk(Connection c, String uploadId, Chunk chunk) throws SQLException {
        Rows.update(
                c,
                """
                INSERT INTO upload_chunks (upload_id, idx, chunk_id, size, crc32c, sha256, total, stored_as, received_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (upload_id, idx) DO UPDATE SET chunk_id = excluded.chunk_id, size = excluded.size,
                    crc32c = excluded.crc32c, sha256 = excluded.sha256, total = excluded.total, stored_as = excluded.stored_as,
                    received_at = excluded.received_at""",
                uploadId,
                chunk.index(),
                chunk.chunkId(),
                chunk.size(),
                chunk.crc32c(),
                chunk.sha256(),
                chunk.total(),
                chunk.storedAs(),
                chunk.receivedAt().toEpochMilli());
    }

    void insertVideo(Connection c, Video v) throws SQLException {
        Rows.update(
                c,
                """
                INSERT INTO videos (id, owner, upload_id, file_name, stored_as, size, crc32c, container, video_codec,
                                    duration, width, height, fps, frames, rotation, has_audio, audio_codec,
                                    audio_stored_as, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                v.id(),
                v.owner(),
                v.uploadId(),
                v.fileName(),
                v.storedAs(),
                v.size(),
                v.crc32c(),
                v.container(),
                v.videoCodec(),
                v.duration(),
                v.width(),
                v.height(),
                v.fps(),
                v.frames(),
                v.rotation(),
                v.hasAudio(),
                v.audioCodec(),
                v.audioStoredAs(),
                v.createdAt().toEpochMilli());
    }

    Optional<Video> findVideo(Connection c, Principal owner, String videoId) throws SQLException {
        return Rows.one(
                c, "SELECT * FROM videos WHERE id = ? AND owner = ?", UploadRepository::video, videoId, owner.user());
    }

    /** Uploads left mid-assembly by a crash: they go back to taking chunks. */
    /**
     * Uploads left mid-assembly by {@code nodeId} (an earlier run of this node) or by a dead process
     * of this host, by a node of an older version (no node recorded), or by any node longer ago than
     * {@code staleBefore}.
     */
    List<Upload> interrupted(Connection c, String nodeId, long staleBefore) throws SQLException {
        List<Upload> found = new ArrayList<>();
        for (var row : Rows.list(
                c,
                "SELECT id, assembling_node, updated_at FROM uploads WHERE state = ?",
                r -> new Object[] {r.getString("id"), r.getString("assembling_node"), r.getLong("updated_at")},
                UploadState.ASSEMBLING.wire())) {
            String holder = (String) row[1];
            if (holder == null || (long) row[2] < staleBefore || NodeIds.mayTakeOver(nodeId, holder)) {
                Rows.one(c, "SELECT * FROM uploads WHERE id = ?", UploadRepository::upload, row[0])
                        .ifPresent(found::add);
            }
        }
        return found;
    }

    void setAssembling(Connection c, String id, String videoId, String nodeId) throws SQLException {
        Rows.update(
                c,
                "UPDATE uploads SET state = ?, video_id = ?, assembling_node = ?, updated_at = ? WHERE id = ?",
                UploadState.ASSEMBLING.wire(),
                videoId,
                nodeId,
                clock.millis(),
                id);
    }

    List<Upload> expired(Connection c, Instant now) throws SQLException {
        return Rows.list(
                c,
                "SELECT * FROM uploads WHERE state = ? AND expires_at < ?",
                UploadRepository::upload,
                UploadState.ACTIVE.wire(),
                now.toEpochMilli());
    }

    /**
     * Deletes the upload only if it is still active and still expired at {@code now}: a chunk that
     * arrived since it was listed renewed its expiry in the same rows, and then it stays.
     *
     * @return whether it was deleted
     */
    boolean deleteIfExpired(Connection c, String uploadId, Instant now) throws SQLException {
        int deleted = Rows.update(
                c,
                "DELETE FROM uploads WHERE id = ? AND state = ? AND expires_at < ?",
                uploadId,
                UploadState.ACTIVE.wire(),
                now.toEpochMilli());
        if (deleted == 0) {
            return false;
        }
        Rows.update(c, "DELETE FROM upload_chunks WHERE upload_id = ?", uploadId);
        return true;
    }

    private static Upload upload(ResultSet row) throws SQLException {
        return new Upload(
                row.getString("id"),
                row.getString("owner"),
                Variant.valueOf(row.getString("variant")),
                row.getString("file_name"),
                Rows.nullableLong(row, "file_size"),
                row.getString("media_type"),
                Rows.nullableInt(row, "total_chunks"),
                UploadState.fromWire(row.getString("state")),
                row.getString("video_id"),
                Instant.ofEpochMilli(row.getLong("created_at")),
                Instant.ofEpochMilli(row.getLong("expires_at")));
    }

    private static Chunk chunk(ResultSet row) throws SQLException {
        return new Chunk(
                row.getInt("idx"),
                row.getString("chunk_id"),
                row.getLong("size"),
                row.getString("crc32c"),
                row.getString("sha256"),
                Rows.nullableInt(row, "total"),
                row.getString("stored_as"),
                Instant.ofEpochMilli(row.getLong("received_at")));
    }

    private static Video video(ResultSet row) throws SQLException {
        return new Video(
                row.getString("id"),
                row.getString("owner"),
                row.getString("upload_id"),
                row.getString("file_name"),
                row.getString("stored_as"),
                row.getLong("size"),
                row.getString("crc32c"),
                row.getString("container"),
                row.getString("video_codec"),
                row.getDouble("duration"),
                row.getInt("width"),
                row.getInt("height"),
                row.getDouble("fps"),
                row.getLong("frames"),
                row.getInt("rotation"),
                row.getInt("has_audio") != 0,
                row.getString("audio_codec"),
                row.getString("audio_stored_as"),
                Instant.ofEpochMilli(row.getLong("created_at")));
    }
}
