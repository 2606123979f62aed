package dev.scorecast.server.quota;

import dev.scorecast.engine.error.Busy;
import dev.scorecast.engine.error.InsufficientStorage;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.config.Quotas;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;

/**
 * Checks a user's share before anything of theirs is written: uploads open at once, stored bytes,
 * analyses queued, and the node's free disk. Each check runs inside the caller's transaction, after
 * {@link #lockUser} (the counts and the insert that follows them see the same rows, on PostgreSQL
 * too), and each refusal says what to do.
 *
 * <p>A user's stored bytes are their videos' sources and their open uploads' chunks (counted from
 * those rows) and every other blob kept for them, each {@linkplain #charge charged} to them in
 * {@code stored_bytes}: plans, the analyses clients send, the server's analyses, extracted audio,
 * thumbnails, an execution's plan, outputs and failure report. To store a blob for a user:
 * <pre>{@code
 * quotas.requireFreeDisk(bytes);                                       // 507 when the disk is nearly full
 * quotas.charge(owner, Stored.forVideo(videoId, key, bytes), "field"); // 507 past the quota, else counted
 * blobs.write(key, ...);                                               // if the write fails: quotas.release(key)
 * }</pre>
 * or, inside a transaction that already holds {@link #lockUser}, {@link #charge(Connection, Principal,
 * Stored, String)}. A charge goes with the video or execution it names (its row cascades), or by
 * {@link #release}. Charging the same key again replaces its size.
 */
public final class QuotaGuard {
    private static final Duration RETRY_AFTER = Duration.ofSeconds(30);

    private final Quotas quotas;
    private final Path dataDir;
    private final Database database;
    private final Clock clock;

    /** Without a database: only the checks that take the caller's connection (tests of one service). */
    public QuotaGuard(Quotas quotas, Path dataDir, Clock clock) {
        this(quotas, dataDir, null, clock);
    }

    /** Charges and locks are dated by {@code clock}, the time retention and the sweeps compare them with. */
    public QuotaGuard(Quotas quotas, Path dataDir, Database database, Clock clock) {
        this.quotas = quotas;
        this.dataDir = dataDir;
        this.database = database;
        this.clock = clock;
    }

    public Quotas quotas() {
        return quotas;
    }

    /** Refuses new work (507) when the data directory's disk has less than the minimum free. */
    public void requireFreeDisk() {
        requireFreeDisk(0);
    }

    /**
     * Refuses (507) to write {@code incoming} more bytes when the data directory's disk would be left
     * with less than the minimum free (SCORECAST_MIN_FREE_BYTES): checked before the write, so nothing
     * is written.
     */
    public void requireFreeDisk(long incoming) {
        long free;
        try {
            free = Files.getFileStore(dataDir).getUsableSpace();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (free - Math.max(0, incoming) < quotas.minFreeBytes()) {
            throw new InsufficientStorage(
                    null,
                    "The server's disk is nearly full (" + mib(free) + " MiB free, " + mib(quotas.minFreeBytes())
                            + " MiB kept in reserve); it stores nothing new until space is freed. Try again later.");
        }
    }

    /**
     * Counts {@code item} in {@code owner}'s share, in the caller's transaction (after {@link
     * #lockUser}): 507 naming {@code field} when it would pass the quota, and nothing is counted.
     * A key charged before is replaced: only the difference in size is checked.
     */
    public void charge(Connection c, Principal owner, Stored item, String field) throws SQLException {
        long before = Rows.one(
                        c, "SELECT bytes FROM stored_bytes WHERE blob_key = ?", row -> row.getLong("bytes"), item.key())
                .orElse(0L);
        requireRoomFor(c, owner, item.bytes() - before, field);
        record(c, owner, item);
    }

    /** Counts {@code item} whatever the quota: for the small reports the server must keep (a failure's report). */
    public void chargeAnyway(Connection c, Principal owner, Stored item) throws SQLException {
        record(c, owner, item);
    }

    /** {@link #charge(Connection, Principal, Stored, String)} in a transaction of its own, holding the owner's lock. */
    public void charge(Principal owner, Stored item, String field) {
        requireDatabase().transaction(c -> {
            lockUser(c, owner);
            charge(c, owner, item, field);
            return null;
        });
    }

    /** No longer counts the blob {@code key} (it was deleted, or its write failed). */
    public void release(Connection c, String key) throws SQLException {
        Rows.update(c, "DELETE FROM stored_bytes WHERE blob_key = ?", key);
    }

    /** {@link #release(Connection, String)} in a transaction of its own. */
    public void release(String key) {
        requireDatabase().transaction(c -> {
            release(c, key);
            return null;
        });
    }

    /** No longer counts the blobs of execution {@code executionId} under {@code prefix} (a re-run writes them again). */
    public void releaseExecution(Connection c, String executionId, String prefix) throws SQLException {
        Rows.update(
                c, "DELETE FROM stored_bytes WHERE execution_id = ? AND blob_key LIKE ?", executionId, prefix + "/%");
    }

    private void record(Connection c, Principal owner, Stored item) throws SQLException {
        Rows.update(c, """
                INSERT INTO stored_bytes (blob_key, owner, video_id, execution_id, bytes, created_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (blob_key) DO UPDATE SET owner = excluded.owner, video_id = excluded.video_id,
                    execution_id = excluded.execution_id, bytes = excluded.bytes, created_at = excluded.created_at""", item.key(), owner.user(), item.videoId(), item.executionId(), item.bytes(), clock.millis());
    }

    private Database requireDatabase() {
        if (database == null) {
            throw new IllegalStateException("this QuotaGuard was made without a database");
        }
        return database;
    }

    /**
     * Holds {@code owner}'s row of {@code user_locks} until the caller's transaction ends; call it
     * first in every transaction that counts the owner's work and then adds to it. Without it two
     * such transactions on PostgreSQL each count before the other commits and both pass a quota
     * with one place left. The upsert writes the row, so it takes the row lock whether the row is
     * new or not (a SELECT ... FOR UPDATE finds no row to lock the first time). SQLite's IMMEDIATE
     * transactions run one at a time already; there it costs one small write.
     */
    public void lockUser(Connection c, Principal owner) throws SQLException {
        Rows.update(
                c,
                "INSERT INTO user_locks (owner, locked_at) VALUES (?, ?)"
                        + " ON CONFLICT (owner) DO UPDATE SET locked_at = excluded.locked_at",
                owner.user(),
                clock.millis());
    }

    /** 429 when {@code owner} already has the most uploads open or assembling. */
    public void requireUploadSlot(Connection c, Principal owner) throws SQLException {
        int open = Rows.one(
                        c,
                        "SELECT COUNT(*) AS n FROM uploads WHERE owner = ? AND state IN ('active', 'assembling')",
                        row -> row.getInt("n"),
                        owner.user())
                .orElse(0);
        if (open >= quotas.maxUploadsInFlight()) {
            throw new Busy(
                    "You have " + open + " uploads open (at most " + quotas.maxUploadsInFlight()
                            + "); complete them or let them expire, then start another.",
                    RETRY_AFTER);
        }
    }

    /** 507 when {@code incoming} more bytes would pass {@code owner}'s storage quota. */
    public void requireRoomFor(Connection c, Principal owner, long incoming, String field) throws SQLException {
        long stored = storedBytes(c, owner);
        if (stored + incoming > quotas.maxStoredBytes()) {
            throw new InsufficientStorage(
                    field,
                    "Storing " + incoming + " more bytes would pass your storage quota: you keep "
                            + stored + " of " + quotas.maxStoredBytes()
                            + " bytes in videos, uploads and what was made from them (analyses, plans,"
                            + " outputs). Old work is deleted after SCORECAST_RETENTION_HOURS; or ask the operator to raise SCORECAST_QUOTA_BYTES.");
        }
    }

    /** The bytes of {@code owner}'s stored videos, of the chunks of their unfinished uploads, and of everything charged to them. */
    public long storedBytes(Connection c, Principal owner) throws SQLException {
        long charged = Rows.one(
                        c,
                        "SELECT COALESCE(SUM(bytes), 0) AS total FROM stored_bytes WHERE owner = ?",
                        row -> row.getLong("total"),
                        owner.user())
                .orElse(0L);
        long videos = Rows.one(
                        c,
                        "SELECT COALESCE(SUM(size), 0) AS total FROM videos WHERE owner = ?",
                        row -> row.getLong("total"),
                        owner.user())
                .orElse(0L);
        long chunks =
                Rows.one(c, """
                SELECT COALESCE(SUM(k.size), 0) AS total FROM upload_chunks k JOIN uploads u ON u.id = k.upload_id
                WHERE u.owner = ? AND u.state IN ('active', 'assembling')""", row -> row.getLong("total"), owner.user()).orElse(0L);
        return videos + chunks + charged;
    }

    /**
     * 429 when {@code owner} already has the most analyses pending or running.
     *
     * @return how many they have, the new job's place in their own queue
     */
    public int requireAnalysisSlot(Connection c, Principal owner) throws SQLException {
        int queued = Rows.one(
                        c,
                        "SELECT COUNT(*) AS n FROM jobs WHERE owner = ? AND kind = 'analysis' AND status IN ('pending', 'processing')",
                        row -> row.getInt("n"),
                        owner.user())
                .orElse(0);
        if (queued >= quotas.maxAnalysesQueued()) {
            throw new Busy(
                    "You have " + queued + " analyses pending or running (at most " + quotas.maxAnalysesQueued()
                            + "); wait for one to finish, then start another.",
                    RETRY_AFTER);
        }
        return queued;
    }

    private static long mib(long bytes) {
        return bytes >> 20;
    }
}
