package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.server.db.Database;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28, secrets: the CLI printed the database URL (a PostgreSQL password with it) and the first
 * node of a fleet printed a full working API key into its log. A URL is shown without its
 * credentials, and a development key is made only on a node of its own (SQLite).
 */
class SecretsInOutputTest {
    @TempDir
    Path data;

    @Test
    void aDatabaseUrlIsShownWithoutItsCredentials() {
        for (String url : new String[] {
            "jdbc:postgresql://db.internal:5432/scorecast?user=app&password=hunter2&sslmode=require",
            "jdbc:postgresql://app:hunter2@db.internal/scorecast",
            "jdbc:postgresql://db/scorecast?PASSWORD=hunter2"
        }) {
            String shown = Database.describe(url);
            assertFalse(shown.contains("hunter2"), shown);
            assertTrue(shown.contains("db"), shown);
        }
        assertEquals("jdbc:sqlite:/data/scorecast.db", Database.describe("jdbc:sqlite:/data/scorecast.db"));
    }

    @Test
    void aNodeOnASharedDatabaseMakesNoDevelopmentKey() throws Exception {
        PostgresSchema.run(url -> {
            try (TestServer server = TestServer.start(data, Map.of("SCORECAST_DB_URL", url, "SCORECAST_ROLE", "api"))) {
                assertTrue(server.server.developmentKey().isEmpty(), "no working key is printed into a fleet's logs");
            }
        });
        try (TestServer single = TestServer.start(data.resolve("single"))) {
            assertTrue(
                    single.server.developmentKey().isPresent(), "a node of its own still shows one for a first look");
        }
    }
}
