package dev.scorecast.server.auth;

import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * API keys of the form {@code sc_<key id>_<secret>}. Only a SHA-256 of the secret is stored;
 * the key id finds the row and the hashes are compared in constant time. The secret carries
 * 160 random bits, so a fast hash is enough: there is nothing to brute-force.
 */
public final class ApiKeys {
    private static final Pattern USER = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@-]{0,63}");
    private static final Pattern KEY = Pattern.compile("sc_([a-z2-7]{12})_([a-z2-7]{32})");

    private final Database database;
    private final Clock clock;

    /** Keys in {@code database}; made and revoked at {@code clock}'s time, the time the rest of the server reads. */
    public ApiKeys(Database database, Clock clock) {
        this.database = database;
        this.clock = clock;
    }

    /** Creates a key for {@code user} and returns it; this is the only time it is ever visible. */
    public String create(String user) {
        if (user == null || !USER.matcher(user).matches()) {
            throw new InvalidParameter(
                    "user",
                    "The user name must be 1-64 characters of letters, digits, '.', '_', '@' or '-', starting with a letter or digit.");
        }
        String keyId = Ids.randomBase32(12);
        String secret = Ids.randomBase32(32);
        database.query(connection -> Rows.update(
                connection,
                "INSERT INTO api_keys (key_id, owner, secret_hash, created_at) VALUES (?, ?, ?, ?)",
                keyId,
                user,
                sha256(secret),
                clock.millis()));
        return "sc_" + keyId + "_" + secret;
    }

    /** The user of a presented key, or empty when the key is malformed, unknown or revoked. */
    public Optional<Principal> verify(String presented) {
        if (presented == null) {
            return Optional.empty();
        }
        var match = KEY.matcher(presented);
        if (!match.matches()) {
            return Optional.empty();
        }
        String keyId = match.group(1);
        byte[] offered = sha256(match.group(2)).getBytes(StandardCharsets.US_ASCII);
        return database.query(connection -> Rows.one(
                        connection,
                        "SELECT owner, secret_hash FROM api_keys WHERE key_id = ? AND revoked_at IS NULL",
                        row -> new StoredKey(row.getString("owner"), row.getString("secret_hash")),
                        keyId))
                .filter(stored ->
                        MessageDigest.isEqual(stored.secretHash().getBytes(StandardCharsets.US_ASCII), offered))
                .map(stored -> new Principal(stored.owner(), keyId));
    }

    /** One key as an operator sees it: never the secret, which is not stored. */
    public record KeyInfo(String keyId, String owner, Instant createdAt, Instant revokedAt) {}

    /** Every key, or {@code user}'s when it is not null, oldest first. */
    public List<KeyInfo> list(String user) {
        Rows.Mapper<KeyInfo> info = row -> new KeyInfo(
                row.getString("key_id"),
                row.getString("owner"),
                Instant.ofEpochMilli(row.getLong("created_at")),
                row.getObject("revoked_at") == null ? null : Instant.ofEpochMilli(row.getLong("revoked_at")));
        String select = "SELECT key_id, owner, created_at, revoked_at FROM api_keys";
        return database.query(connection -> user == null
                ? Rows.list(connection, select + " ORDER BY created_at, key_id", info)
                : Rows.list(connection, select + " WHERE owner = ? ORDER BY created_at, key_id", info, user));
    }

    /**
     * Revokes the key with id {@code keyId} (the part after {@code sc_}, or the whole key): requests with it
     * are refused from now on, on every node.
     *
     * @return false when no such key exists or it was revoked already
     */
    public boolean revoke(String keyIdOrKey) {
        var whole = keyIdOrKey == null ? null : KEY.matcher(keyIdOrKey);
        String keyId = whole != null && whole.matches() ? whole.group(1) : keyIdOrKey;
        return database.query(connection -> Rows.update(
                        connection,
                        "UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL",
                        clock.millis(),
                        keyId))
                > 0;
    }

    /** The ids of every revoked key (few: keys are made by hand). */
    public Set<String> revokedIds() {
        return Set.copyOf(database.query(connection -> Rows.list(
                connection,
                "SELECT key_id FROM api_keys WHERE revoked_at IS NOT NULL",
                row -> row.getString("key_id"))));
    }

    public boolean none() {
        return database.query(connection ->
                                Rows.one(connection, "SELECT COUNT(*) AS n FROM api_keys", row -> row.getLong("n")))
                        .orElse(0L)
                == 0;
    }

    private record StoredKey(String owner, String secretHash) {}

    private static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
