package dev.scorecast.server.webhooks;

import dev.scorecast.server.auth.Ids;
import dev.scorecast.server.config.NodeIds;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The tables {@code webhook_events}, {@code webhook_deliveries} and {@code webhook_attempts}: the
 * durable queue. A delivery is due when it is pending, its time has come, no node holds a live
 * claim on it, and no earlier delivery to the same endpoint about the same object is still pending
 * (deliveries about one object arrive in order). A node claims a due delivery with one conditional
 * update, so two nodes never send it at once; a claim lapses after a lease, or when the node that
 * held it starts again, so a crash mid-attempt means the delivery is sent again (at least once).
 */
public final class DeliveryRepository {
    private final Database database;

    public DeliveryRepository(Database database) {
        this.database = database;
    }

    /** A delivery ready to be attempted. */
    record Due(String id, String webhookId, String eventId, String owner, int attempts, long giveUpAt) {}

    /**
     * Records event {@code type} about {@code objectId} and one pending delivery of it to each of
     * {@code webhookIds}, on the caller's connection (in the transaction of the change it reports).
     */
    String enqueue(
            Connection c,
            String owner,
            EventType type,
            String objectId,
            String snapshot,
            List<String> webhookIds,
            Instant now,
            Instant giveUpAt)
            throws SQLException {
        String eventId = Ids.next("evt");
        Rows.update(
                c,
                "INSERT INTO webhook_events (id, owner, type, object_id, snapshot, body, created_at) VALUES (?, ?, ?, ?, ?, NULL, ?)",
                eventId,
                owner,
                type.wire(),
                objectId,
                snapshot,
                now.toEpochMilli());
        for (String webhookId : webhookIds) {
            insertDelivery(c, webhookId, eventId, owner, objectId, now, giveUpAt);
        }
        return eventId;
    }

    /** A new pending delivery of {@code eventId} to {@code webhookId}, after every delivery there about the same object. */
    String insertDelivery(
            Connection c,
            String webhookId,
            String eventId,
            String owner,
            String objectId,
            Instant now,
            Instant giveUpAt)
            throws SQLException {
        long seq = Rows.one(
                                c,
                                "SELECT COALESCE(MAX(seq), 0) AS s FROM webhook_deliveries WHERE webhook_id = ? AND object_id = ?",
                                row -> row.getLong("s"),
                                webhookId,
                                objectId)
                        .orElse(0L)
                + 1;
        String id = Ids.next("dlv");
        Rows.update(
                c,
                """
                INSERT INTO webhook_deliveries (id, webhook_id, event_id, owner, object_id, seq, state, attempts, next_attempt_at, give_up_at,
                                                claimed_by, claimed_until, created_at, ended_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, NULL, NULL, ?, NULL)""",
                id,
                webhookId,
                eventId,
                owner,
                objectId,
                seq,
                DeliveryState.PENDING.wire(),
                now.toEpochMilli(),
                giveUpAt.toEpochMilli(),
                now.toEpochMilli());
        return id;
    }

    /** The event and object of one of {@code owner}'s deliveries to {@code webhookId}. */
    Optional<String[]> eventOf(Connection c, String owner, String webhookId, String deliveryId) throws SQLException {
        return Rows.one(
                c,
                "SELECT event_id, object_id, state FROM webhook_deliveries WHERE id = ? AND webhook_id = ? AND owner = ?",
                row -> new String[] {row.getString("event_id"), row.getString("object_id"), row.getString("state")},
                deliveryId,
                webhookId,
                owner);
    }

    /** The one delivery of {@code eventId} to {@code webhookId} (a test event has exactly one). */
    String deliveryOf(Connection c, String eventId, String webhookId) throws SQLException {
        return Rows.one(
                        c,
                        "SELECT id FROM webhook_deliveries WHERE event_id = ? AND webhook_id = ?",
                        row -> row.getString("id"),
                        eventId,
                        webhookId)
                .orElseThrow();
    }

    /** Deliveries of {@code owner} still pending (what test and redeliver are bounded by). */
    int pending(Connection c, String owner) throws SQLException {
        return Rows.one(
                        c,
                        "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE owner = ? AND state = ?",
                        row -> row.getInt("n"),
                        owner,
                        DeliveryState.PENDING.wire())
                .orElse(0);
    }

    /** Up to {@code limit} deliveries due at {@code now}, the longest waiting first. */
    List<Due> due(long now, int limit) {
        return database.query(c -> Rows.list(
                c,
                """
                SELECT d.id, d.webhook_id, d.event_id, d.owner, d.attempts, d.give_up_at FROM webhook_deliveries d
                WHERE d.state = ? AND d.next_attempt_at <= ? AND (d.claimed_until IS NULL OR d.claimed_until < ?)
                  AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e
                                  WHERE e.webhook_id = d.webhook_id AND e.object_id = d.object_id AND e.seq < d.seq AND e.state = ?)
                ORDER BY d.next_attempt_at, d.seq LIMIT ?""",
                row -> new Due(
                        row.getString("id"),
                        row.getString("webhook_id"),
                        row.getString("event_id"),
                        row.getString("owner"),
                        row.getInt("attempts"),
                        row.getLong("give_up_at")),
                DeliveryState.PENDING.wire(),
                now,
                now,
                DeliveryState.PENDING.wire(),
                limit));
    }

    /** Takes {@code id} for {@code node} until {@code until}; false when another node took it first or it is no longer pending. */
    boolean claim(String id, String node, long now, long until) {
        return database.query(c -> Rows.update(c, """
                UPDATE webhook_deliveries SET claimed_by = ?, claimed_until = ?
                WHERE id = ? AND state = ? AND (claimed_until IS NULL OR claimed_until < ?)""", node, until, id, DeliveryState.PENDING.wire(), now)) == 1;
    }

    /**
     * Records attempt {@code attempt} and what follows it: delivered, given up (failed), or pending
     * again at {@code nextAttemptAt}. The claim is let go.
     */
    void finish(
            Due due,
            int attempt,
            Instant startedAt,
            Attempt result,
            DeliveryState state,
            long nextAttemptAt,
            long now) {
        database.transaction(c -> {
            Rows.update(
                    c,
                    """
                    INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error, response)
                    VALUES (?, ?, ?, ?, ?, ?, ?)""",
                    due.id(),
                    attempt,
                    startedAt.toEpochMilli(),
                    result.durationMillis(),
                    result.statusCode(),
                    result.error(),
                    result.response());
            Rows.update(
                    c,
                    """
                    UPDATE webhook_deliveries SET state = ?, attempts = ?, next_attempt_at = ?, claimed_by = NULL, claimed_until = NULL,
                                                  ended_at = ?
                    WHERE id = ?""",
                    state.wire(),
                    attempt,
                    nextAttemptAt,
                    state == DeliveryState.PENDING ? null : now,
                    due.id());
            return null;
        });
    }

    /**
     * Lets go of the claims an earlier run of {@code node} held (it stopped mid-attempt and never
     * said so): those deliveries are sent again. Claims of other live nodes are left to lapse.
     */
    int releaseClaims(String node) {
        List<String[]> held = database.query(c -> Rows.list(
                c,
                "SELECT id, claimed_by FROM webhook_deliveries WHERE state = ? AND claimed_by IS NOT NULL",
                row -> new String[] {row.getString("id"), row.getString("claimed_by")},
                DeliveryState.PENDING.wire()));
        int released = 0;
        for (String[] row : held) {
            if (NodeIds.mayTakeOver(node, row[1])) {
                String id = row[0];
                released += database.query(c -> Rows.update(
                        c,
                        "UPDATE webhook_deliveries SET claimed_by = NULL, claimed_until = NULL WHERE id = ? AND claimed_by = ?",
                        id,
                        row[1]));
            }
        }
        return released;
    }

    /** The event's stored body, its type, owner, snapshot and time. */
    record StoredEvent(String id, String owner, EventType type, String snapshot, String body, Instant createdAt) {}

    Optional<StoredEvent> event(String eventId) {
        return database.query(c -> Rows.one(
                c,
                "SELECT * FROM webhook_events WHERE id = ?",
                row -> new StoredEvent(
                        row.getString("id"),
                        row.getString("owner"),
                        EventType.fromWire(row.getString("type")).orElseThrow(),
                        row.getString("snapshot"),
                        row.getString("body"),
                        Instant.ofEpochMilli(row.getLong("created_at"))),
                eventId));
    }

    /** Fixes the event's body, unless another node fixed it first (then theirs stays). */
    void setBody(String eventId, String body) {
        database.query(
                c -> Rows.update(c, "UPDATE webhook_events SET body = ? WHERE id = ? AND body IS NULL", body, eventId));
    }

    /** The newest {@code limit} deliveries to {@code webhookId}, each with its attempts. */
    List<Delivery> list(String owner, String webhookId, int limit) {
        return database.query(c -> {
            Map<String, Delivery> byId = new LinkedHashMap<>();
            for (Delivery d : Rows.list(c, """
                    SELECT d.*, e.type FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
                    WHERE d.webhook_id = ? AND d.owner = ? ORDER BY d.created_at DESC, d.seq DESC LIMIT ?""", row -> delivery(row, List.of()), webhookId, owner, limit)) {
                byId.put(d.id(), d);
            }
            return attach(c, byId);
        });
    }

    Optional<Delivery> find(String owner, String deliveryId) {
        return database.query(c -> {
            Map<String, Delivery> byId = new LinkedHashMap<>();
            Rows.one(
                            c,
                            "SELECT d.*, e.type FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.id = ? AND d.owner = ?",
                            row -> delivery(row, List.of()),
                            deliveryId,
                            owner)
                    .ifPresent(d -> byId.put(d.id(), d));
            return attach(c, byId).stream().findFirst();
        });
    }

    private static List<Delivery> attach(Connection c, Map<String, Delivery> byId) throws SQLException {
        List<Delivery> out = new ArrayList<>();
        for (Delivery d : byId.values()) {
            // The attempts the delivery row counts, no more: the two reads are separate statements, and an
            // attempt finished between them (its row and the delivery's update commit together) would
            // show a delivery whose attempts run ahead of its state and next attempt (a torn read).
            List<Delivery.Try> tries = Rows.list(
                    c,
                    "SELECT * FROM webhook_attempts WHERE delivery_id = ? AND attempt <= ? ORDER BY attempt",
                    row -> new Delivery.Try(
                            row.getInt("attempt"),
                            Instant.ofEpochMilli(row.getLong("started_at")),
                            row.getLong("duration_ms"),
                            Rows.nullableInt(row, "status_code"),
                            row.getString("error"),
                            row.getString("response")),
                    d.id(),
                    d.attempts());
            out.add(new Delivery(
                    d.id(),
                    d.webhookId(),
                    d.eventId(),
                    d.eventType(),
                    d.state(),
                    d.attempts(),
                    d.createdAt(),
                    d.nextAttemptAt(),
                    d.endedAt(),
                    tries));
        }
        return out;
    }

    /**
     * Forgets events older than {@code before} whose deliveries have all ended, with their deliveries and attempts.
     * Returns how many events went.
     */
    int forgetEndedBefore(Instant before) {
        return database.query(c -> Rows.update(c, """
                DELETE FROM webhook_events WHERE created_at < ?
                AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id AND d.state = ?)""", before.toEpochMilli(), DeliveryState.PENDING.wire()));
    }

    private static Delivery delivery(ResultSet row, List<Delivery.Try> tries) throws SQLException {
        DeliveryState state = DeliveryState.fromWire(row.getString("state"));
        Long ended = Rows.nullableLong(row, "ended_at");
        return new Delivery(
                row.getString("id"),
                row.getString("webhook_id"),
                row.getString("event_id"),
                row.getString("type"),
                state,
                row.getInt("attempts"),
                Instant.ofEpochMilli(row.getLong("created_at")),
                state == DeliveryState.PENDING ? Instant.ofEpochMilli(row.getLong("next_attempt_at")) : null,
                ended == null ? null : Instant.ofEpochMilli(ended),
                tries);
    }
}
