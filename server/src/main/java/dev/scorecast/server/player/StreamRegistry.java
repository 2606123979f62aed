package dev.scorecast.server.player;

import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which node plays each live stream, in the database every node shares (table {@code live_streams}).
 * A stream counts as active until a node ends it, or until no node has recorded activity on it for
 * {@code staleAfter} (its node died without saying so); every lookup here sees only active streams.
 */
public final class StreamRegistry {
    private static final String COLUMNS = "id, owner, token_hash, node_url, created_at, last_active_at, key_id";
    private static final String ACTIVE = "ended_at IS NULL AND last_active_at >= ?";

    /** Why a stream ended, kept with the row for whoever reads the table later. */
    public enum EndReason {
        ENDED_BY_OWNER,
        EXPIRED,
        NODE_STOPPED,
        NODE_RESTARTED,
        NODE_UNREACHABLE,
        LOST_BY_NODE,
        NOT_KEPT_ALIVE,
        KEY_REVOKED;

        String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Database database;
    private final Clock clock;
    private final Duration staleAfter;
    private final StreamEvents events;

    public StreamRegistry(Database database, Clock clock, Duration staleAfter) {
        this(database, clock, staleAfter, StreamEvents.NONE);
    }

    /** {@code events} hears of every stream this registry ends, inside the transaction that ends it. */
    public StreamRegistry(Database database, Clock clock, Duration staleAfter, StreamEvents events) {
        this.database = database;
        this.clock = clock;
        this.staleAfter = staleAfter;
        this.events = events;
    }

    /**
     * Records {@code stream} as its owner's active stream; false when the owner already has one, on
     * any node. The unique index on active rows decides, so two nodes creating at once cannot both
     * win. A stream of the owner that nobody kept alive is ended first.
     */
    public boolean claim(StreamRecord stream) {
        long now = clock.millis();
        return database.transaction(connection -> {
            endWhere(
                    connection,
                    "owner = ? AND ended_at IS NULL AND last_active_at < ?",
                    EndReason.NOT_KEPT_ALIVE,
                    now,
                    stream.owner().user(),
                    staleBefore());
            return Rows.update(
                            connection,
                            "INSERT INTO live_streams (" + COLUMNS
                                    + ") VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                            stream.id(),
                            stream.owner().user(),
                            stream.tokenHash(),
                            stream.nodeUrl(),
                            stream.created().toEpochMilli(),
                            stream.lastActive().toEpochMilli(),
                            stream.owner().keyId())
                    == 1;
        });
    }

    /** The owner's active stream, wherever it plays. */
    public Optional<StreamRecord> active(Principal owner) {
        return one("owner = ?", owner.user());
    }

    /** The active stream whose session token hashes to {@code tokenHash}. */
    public Optional<StreamRecord> activeByToken(String tokenHash) {
        return one("token_hash = ?", tokenHash);
    }

    /** The active stream {@code id} (a signed stream link names one; the link's signature vouches for the caller). */
    public Optional<StreamRecord> activeById(String id) {
        return one("id = ?", id);
    }

    /** Ids of the active streams {@code node} plays. */
    public Set<String> activeIdsOn(String node) {
        return database.query(connection -> new HashSet<>(Rows.list(
                connection,
                "SELECT id FROM live_streams WHERE node_url = ? AND " + ACTIVE,
                row -> row.getString("id"),
                node,
                staleBefore())));
    }

    /** Ends stream {@code id}; false when it had already ended. */
    public boolean end(String id, EndReason reason) {
        return database.transaction(
                        connection -> endWhere(connection, "id = ? AND ended_at IS NULL", reason, clock.millis(), id))
                == 1;
    }

    /** Ends the streams {@code node} created before {@code before}: a node that starts has none of them in memory. */
    public int endAllOn(String node, Instant before, EndReason reason) {
        return database.transaction(connection -> endWhere(
                connection,
                "node_url = ? AND ended_at IS NULL AND created_at < ?",
                reason,
                clock.millis(),
                node,
                before.toEpochMilli()));
    }

    /**
     * Ends the active streams made with one of {@code keyIds}, which were revoked: their nodes drop
     * them at their next sweep (a second), and their session tokens and links find no stream.
     */
    public int endMadeWith(Collection<String> keyIds) {
        int ended = 0;
        for (String keyId : keyIds) {
            ended += database.transaction(connection -> endWhere(
                    connection, "key_id = ? AND ended_at IS NULL", EndReason.KEY_REVOKED, clock.millis(), keyId));
        }
        return ended;
    }

    /** Ends the streams {@code condition} selects and tells the listener of each, in the caller's transaction. */
    private int endWhere(Connection connection, String condition, EndReason reason, long now, Object... params)
            throws SQLException {
        var ending = Rows.list(
                connection,
                "SELECT id, owner FROM live_streams WHERE " + condition + database.forUpdate(),
                row -> new String[] {row.getString("id"), row.getString("owner")},
                params);
        int ended = 0;
        for (String[] stream : ending) {
            if (Rows.update(
                            connection,
                            "UPDATE live_streams SET ended_at = ?, end_reason = ? WHERE id = ? AND ended_at IS NULL",
                            now,
                            reason.wire(),
                            stream[0])
                    == 1) {
                ended++;
                events.ended(connection, stream[0], stream[1], reason.wire(), Instant.ofEpochMilli(now));
            }
        }
        return ended;
    }

    /** Records the last activity of streams (id to instant), so other nodes see they are alive. */
    public void recordActivity(Map<String, Instant> lastActivity) {
        if (lastActivity.isEmpty()) {
            return;
        }
        database.transaction(connection -> {
            for (var e : lastActivity.entrySet()) {
                Rows.update(
                        connection,
                        "UPDATE live_streams SET last_active_at = ? WHERE id = ? AND ended_at IS NULL",
                        e.getValue().toEpochMilli(),
                        e.getKey());
            }
            return null;
        });
    }

    /** Deletes the rows of streams that ended before {@code before}; they only matter while they are recent. */
    public int forgetEndedBefore(Instant before) {
        return database.query(connection ->
                Rows.update(connection, "DELETE FROM live_streams WHERE ended_at < ?", before.toEpochMilli()));
    }

    private Optional<StreamRecord> one(String condition, String value) {
        return database.query(connection -> Rows.one(
                connection,
                "SELECT " + COLUMNS + " FROM live_streams WHERE " + condition + " AND " + ACTIVE,
                StreamRegistry::record,
                value,
                staleBefore()));
    }

    private long staleBefore() {
        return clock.millis() - staleAfter.toMillis();
    }

    private static StreamRecord record(ResultSet row) throws SQLException {
        return new StreamRecord(
                row.getString("id"),
                new Principal(row.getString("owner"), row.getString("key_id")),
                row.getString("token_hash"),
                row.getString("node_url"),
                Instant.ofEpochMilli(row.getLong("created_at")),
                Instant.ofEpochMilli(row.getLong("last_active_at")));
    }
}
