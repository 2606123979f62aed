package dev.scorecast.server.webhooks;

import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/** The webhooks table. Lookups for clients always match the owner; the dispatcher reads by id alone. */
public final class WebhookRepository {
    private final Database database;

    public WebhookRepository(Database database) {
        this.database = database;
    }

    /** Where and with what a delivery is signed and sent. */
    public record Target(String url, String secret) {}

    void insert(Connection c, Webhook webhook, String secret) throws SQLException {
        Rows.update(
                c,
                "INSERT INTO webhooks (id, owner, url, events, secret, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                webhook.id(),
                webhook.owner(),
                webhook.url(),
                encode(webhook.events()),
                secret,
                webhook.createdAt().toEpochMilli());
    }

    int count(Connection c, String owner) throws SQLException {
        return Rows.one(c, "SELECT COUNT(*) AS n FROM webhooks WHERE owner = ?", row -> row.getInt("n"), owner)
                .orElse(0);
    }

    /** The owner's endpoints subscribed to {@code type}. */
    List<String> subscribed(Connection c, String owner, EventType type) throws SQLException {
        return Rows.list(
                c,
                "SELECT id FROM webhooks WHERE owner = ? AND events LIKE ? ORDER BY created_at, id",
                row -> row.getString("id"),
                owner,
                "%," + type.wire() + ",%");
    }

    public List<Webhook> list(String owner) {
        return database.query(c -> Rows.list(
                c,
                "SELECT * FROM webhooks WHERE owner = ? ORDER BY created_at, id",
                WebhookRepository::webhook,
                owner));
    }

    /** Every endpoint of every user (the command line's list). */
    public List<Webhook> listAll() {
        return database.query(
                c -> Rows.list(c, "SELECT * FROM webhooks ORDER BY owner, created_at, id", WebhookRepository::webhook));
    }

    public Optional<Webhook> find(String owner, String id) {
        return database.query(c -> Rows.one(
                c, "SELECT * FROM webhooks WHERE id = ? AND owner = ?", WebhookRepository::webhook, id, owner));
    }

    public Optional<Webhook> findAny(String id) {
        return database.query(c -> Rows.one(c, "SELECT * FROM webhooks WHERE id = ?", WebhookRepository::webhook, id));
    }

    /** Deletes the endpoint with its deliveries (pending ones are never sent); false when there was none. */
    boolean delete(String owner, String id) {
        return database.transaction(c -> Rows.update(c, "DELETE FROM webhooks WHERE id = ? AND owner = ?", id, owner))
                == 1;
    }

    Optional<Target> target(String id) {
        return database.query(c -> Rows.one(
                c,
                "SELECT url, secret FROM webhooks WHERE id = ?",
                row -> new Target(row.getString("url"), row.getString("secret")),
                id));
    }

    private static String encode(Set<EventType> events) {
        return events.stream().sorted().map(EventType::wire).collect(Collectors.joining(",", ",", ","));
    }

    private static Set<EventType> decode(String text) {
        Set<EventType> events = EnumSet.noneOf(EventType.class);
        Arrays.stream(text.split(","))
                .filter(s -> !s.isEmpty())
                .map(EventType::fromWire)
                .flatMap(Optional::stream)
                .forEach(events::add);
        return events;
    }

    private static Webhook webhook(ResultSet row) throws SQLException {
        return new Webhook(
                row.getString("id"),
                row.getString("owner"),
                row.getString("url"),
                decode(row.getString("events")),
                Instant.ofEpochMilli(row.getLong("created_at")));
    }
}
