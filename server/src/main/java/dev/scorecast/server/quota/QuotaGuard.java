package dev.scorecast.server.quota;

import dev.scorecast.engine.error.Busy;
import dev.scorecast.engine.error.InsufficientStorage;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.config.Quotas;
import dev.scorecast.server.db.Rows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Checks a user's share before anything of theirs is written: uploads open at once, stored bytes,
 * analyses queued, and the node's free disk. Each check runs inside the caller's transaction, after
 * {@link #lockUser} (the counts and the insert that follows them see the same rows, on PostgreSQL
 * too), and each refusal says what to do.
 */
public final class QuotaGuard {
    private static final Duration RETRY_AFTER = Duration.ofSeconds(30);

    private final Quotas quotas;
    private final Path dataDir;

    public QuotaGuard(Quotas quotas, Path dataDir) {
        this.quotas = quotas;
        this.dataDir = dataDir;
    }

    /** Refuses new work (507) when the data directory's disk has less than the minimum free. */
    public void requireFreeDisk() {
        long free;
        try {
            free = Files.getFileStore(dataDir).getUsableSpace();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (free < quotas.minFreeBytes()) {
            throw new InsufficientStorage(null, "The server's disk is nearly full (" + mib(free) + " MiB free, "
                    + mib(quotas.minFreeBytes()) + " MiB kept in reserve); it takes no new uploads or jobs until space is freed. Try again later.");
        }
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
        Rows.update(c, "INSERT INTO user_locks (owner, locked_at) VALUES (?, ?)"
                + " ON CONFLICT (owner) DO UPDATE SET locked_at = excluded.locked_at", owner.user(), System.currentTimeMillis());
    }

    /** 429 when {@code owner} already has the most uploads open or assembling. */
    public void requireUploadSlot(Connection c, Principal owner) throws SQLException {
        int open = Rows.one(c, "SELECT COUNT(*) AS n FROM uploads WHERE owner = ? AND state IN ('active', 'assembling')",
                row -> row.getInt("n"), owner.user()).orElse(0);
        if (open >= quotas.maxUploadsInFlight()) {
            throw new Busy("You have " + open + " uploads open (at most " + quotas.maxUploadsInFlight()
                    + "); complete them or let them expire, then start another.", RETRY_AFTER);
        }
    }

    /** 507 when {@code incoming} more bytes would pass {@code owner}'s storage quota. */
    public void requireRoomFor(Connection c, Principal owner, long incoming, String field) throws SQLException {
        long stored = storedBytes(c, owner);
        if (stored + incoming > quotas.maxStoredBytes()) {
            throw new InsufficientStorage(field, "Storing " + incoming + " more bytes would pass your storage quota: you keep "
                    + stored + " of " + quotas.maxStoredBytes() + " bytes in videos and uploads. Delete old videos or ask the operator"
                    + " to raise SCORECAST_QUOTA_BYTES.");
        }
    }

    /** The bytes of {@code owner}'s stored videos and of the chunks of their unfinished uploads. */
    public long storedBytes(Connection c, Principal owner) throws SQLException {
        long videos = Rows.one(c, "SELECT COALESCE(SUM(size), 0) AS total FROM videos WHERE owner = ?",
                row -> row.getLong("total"), owner.user()).orElse(0L);
        long chunks = Rows.one(c, """
                SELECT COALESCE(SUM(k.size), 0) AS total FROM upload_chunks k JOIN uploads u ON u.id = k.upload_id
                WHERE u.owner = ? AND u.state IN ('active', 'assembling')""", row -> row.getLong("total"), owner.user()).orElse(0L);
        return videos + chunks;
    }

    /**
     * 429 when {@code owner} already has the most analyses pending or running.
     *
     * @return how many they have, the new job's place in their own queue
     */
    public int requireAnalysisSlot(Connection c, Principal owner) throws SQLException {
        int queued = Rows.one(c, "SELECT COUNT(*) AS n FROM jobs WHERE owner = ? AND kind = 'analysis' AND status IN ('pending', 'processing')",
                row -> row.getInt("n"), owner.user()).orElse(0);
        if (queued >= quotas.maxAnalysesQueued()) {
            throw new Busy("You have " + queued + " analyses pending or running (at most " + quotas.maxAnalysesQueued()
                    + "); wait for one to finish, then start another.", RETRY_AFTER);
        }
        return queued;
    }

    private static long mib(long bytes) {
        return bytes >> 20;
    }
}
