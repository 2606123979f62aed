package dev.scorecast.server.downloads;

import dev.scorecast.engine.core.Ticker;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The link secrets every node reads: the current one and, after a rotation, the previous one with
 * the end of its overlap. Read from the database at most every {@link #REFRESH}, so a rotation made
 * by `scorecast keys rotate-link-secret` (another process) reaches every node within that.
 * A secret set in the environment (SCORECAST_LINK_SECRET) wins; its predecessor is then
 * SCORECAST_LINK_SECRET_PREVIOUS, verifying for the overlap after the node starts.
 */
public final class LinkSecrets implements Supplier<DownloadLinks.Secrets> {
    static final Duration REFRESH = Duration.ofSeconds(5);

    private final Database database;
    private final Clock clock;
    /** Times the refresh of the cached secrets (a monotonic interval, not a date). */
    private final Ticker ticker;

    private final DownloadLinks.Secrets fromEnvironment;
    private volatile DownloadLinks.Secrets cached;
    private volatile long readAt;

    /** {@code current} is the secret SharedSecrets made or found (it exists in the database, unless set in the environment). */
    public LinkSecrets(
            Database database,
            Clock clock,
            Ticker ticker,
            byte[] current,
            Optional<String> environment,
            Optional<String> previousEnvironment,
            Duration overlap) {
        this.database = database;
        this.clock = clock;
        this.ticker = ticker;
        this.fromEnvironment = environment.isPresent()
                ? new DownloadLinks.Secrets(
                        current,
                        previousEnvironment.map(LinkSecrets::utf8).orElse(null),
                        clock.instant().plus(overlap))
                : null;
        this.cached = fromEnvironment != null ? fromEnvironment : new DownloadLinks.Secrets(current, null, null);
        this.readAt = ticker.nanos();
    }

    private static byte[] utf8(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public DownloadLinks.Secrets get() {
        if (fromEnvironment != null) {
            return fromEnvironment;
        }
        if (ticker.nanos() - readAt > REFRESH.toNanos()) {
            readAt = ticker.nanos(); // one reader refreshes; the others use what is cached meanwhile
            try {
                cached = read(database);
            } catch (RuntimeException e) {
                // The database away: links go on under the secrets known.
            }
        }
        return cached;
    }

    static DownloadLinks.Secrets read(Database database) {
        return database.query(c -> {
            byte[] current = Rows.one(
                            c,
                            "SELECT value FROM shared_secrets WHERE name = ?",
                            row -> Base64.getDecoder().decode(row.getString("value")),
                            DownloadLinks.SECRET_NAME)
                    .orElseThrow(() -> new IllegalStateException("no link secret in the database"));
            var previous = Rows.one(
                    c,
                    "SELECT value, valid_until FROM shared_secrets WHERE name = ?",
                    row -> new DownloadLinks.Secrets(
                            current,
                            Base64.getDecoder().decode(row.getString("value")),
                            Instant.ofEpochMilli(row.getLong("valid_until"))),
                    DownloadLinks.PREVIOUS_SECRET_NAME);
            return previous.orElse(new DownloadLinks.Secrets(current, null, null));
        });
    }

    /**
     * Replaces the database's link secret with a new random one; the old one verifies links for
     * {@code overlap} more (links made before keep working that long), then no more.
     *
     * @return when the old secret stops verifying
     */
    public static Instant rotate(Database database, Clock clock, Duration overlap) {
        byte[] fresh = new byte[32];
        new SecureRandom().nextBytes(fresh);
        Instant until = clock.instant().plus(overlap);
        long now = clock.millis();
        database.transaction(c -> {
            String old = Rows.one(
                            c,
                            "SELECT value FROM shared_secrets WHERE name = ?" + database.forUpdate(),
                            row -> row.getString("value"),
                            DownloadLinks.SECRET_NAME)
                    .orElseThrow(
                            () -> new IllegalStateException(
                                    "no link secret in the database yet: start a node once (or the secret is set in the environment)"));
            Rows.update(c, "DELETE FROM shared_secrets WHERE name = ?", DownloadLinks.PREVIOUS_SECRET_NAME);
            Rows.update(
                    c,
                    "INSERT INTO shared_secrets (name, value, created_at, valid_until) VALUES (?, ?, ?, ?)",
                    DownloadLinks.PREVIOUS_SECRET_NAME,
                    old,
                    now,
                    until.toEpochMilli());
            Rows.update(
                    c,
                    "UPDATE shared_secrets SET value = ?, created_at = ? WHERE name = ?",
                    Base64.getEncoder().encodeToString(fresh),
                    now,
                    DownloadLinks.SECRET_NAME);
            return null;
        });
        return until;
    }
}
