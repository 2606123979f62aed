package dev.scorecast.server.db;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every pooled SQLite connection syncs each commit (synchronous=FULL, 2): what a client was answered
 * as stored survives a power cut, as docs/RELIABILITY.md says. It was NORMAL (1), which in WAL mode
 * may lose the last commits to a power cut.
 */
class SqliteDurabilityTest {
    @TempDir
    Path data;

    @Test
    void everyConnectionSyncsItsCommits() {
        try (Database database = Database.open("jdbc:sqlite:" + data.resolve("scorecast.db"))) {
            List<Integer> modes = new ArrayList<>();
            // Held at once, so that several of the pool's connections answer, not one again and again.
            database.query(a -> database.query(b -> {
                modes.add(
                        Rows.one(a, "PRAGMA synchronous", row -> row.getInt(1)).orElseThrow());
                modes.add(
                        Rows.one(b, "PRAGMA synchronous", row -> row.getInt(1)).orElseThrow());
                return null;
            }));
            assertEquals(List.of(2, 2), modes);
        }
    }
}
