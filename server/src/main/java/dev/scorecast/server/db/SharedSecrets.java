package dev.scorecast.server.db;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.Optional;

/**
 * Secrets the nodes share, made once by whichever node comes first and read by all the others from
 * the database (an operator may set them in the environment instead). Never a node-local file:
 * nodes on different machines must agree.
 */
public final class SharedSecrets {
    private final Database database;
    private final Clock clock;

    public SharedSecrets(Database database, Clock clock) {
        this.database = database;
        this.clock = clock;
    }

    /**
     * The secret {@code name}: {@code fromEnvironment} when given, otherwise the database's, made
     * now from 32 random bytes (or {@code legacy}, an older node-local secret being carried over)
     * when the database has none. Two nodes starting at once agree on whichever insert landed.
     */
    public byte[] get(String name, Optional<String> fromEnvironment, Optional<byte[]> legacy) {
        if (fromEnvironment.isPresent()) {
            return fromEnvironment.get().getBytes(StandardCharsets.UTF_8);
        }
        byte[] fresh = legacy.orElseGet(() -> {
            byte[] bytes = new byte[32];
            new SecureRandom().nextBytes(bytes);
            return bytes;
        });
        String encoded = Base64.getEncoder().encodeToString(fresh);
        return database.query(c -> {
            // Insert-if-absent in a form both SQLite and PostgreSQL take.
            Rows.update(
                    c,
                    "INSERT INTO shared_secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING",
                    name,
                    encoded,
                    clock.millis());
            String stored = Rows.one(
                            c, "SELECT value FROM shared_secrets WHERE name = ?", row -> row.getString("value"), name)
                    .orElseThrow(() -> new IllegalStateException(
                            "shared secret " + name + " vanished right after it was written"));
            return Base64.getDecoder().decode(stored);
        });
    }
}
