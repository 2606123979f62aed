package dev.scorecast.server.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.server.PostgresSchema;
import java.sql.DriverManager;
import org.junit.jupiter.api.Test;

/**
 * Stop 34's CI: during an immediate PostgreSQL restart, {@code POST /sync/complete_video_upload}
 * answered 500. The transaction's statement failed on the lost connection, the pool closed it, and the
 * rollback's own failure ("Connection is closed", no SQLSTATE) replaced the first: the caller no longer
 * saw that the database was away. Here the database ends the connection in the middle of a transaction
 * (as a restart does) and the failure must still read as unavailable (503 with Retry-After).
 */
class LostConnectionTest {
    @Test
    void aConnectionTheDatabaseEndsMidTransactionReadsAsUnavailable() throws Exception {
        PostgresSchema.run(url -> {
            try (Database database = Database.open(url)) {
                var failure = assertThrows(
                        Database.DatabaseException.class,
                        () -> database.transaction(connection -> {
                            int backend;
                            try (var result = connection.createStatement().executeQuery("SELECT pg_backend_pid()")) {
                                result.next();
                                backend = result.getInt(1);
                            }
                            try (var admin = DriverManager.getConnection(PostgresSchema.SERVER)) {
                                admin.createStatement().execute("SELECT pg_terminate_backend(" + backend + ")");
                            }
                            connection.createStatement().execute("SELECT 1");
                            return null;
                        }));
                assertTrue(Database.unavailable(failure), () -> "read as the caller's fault: " + failure);
                assertEquals(1, failure.getCause().getSuppressed().length, "the rollback's failure is kept beside it");
                int answer = database.query(connection -> {
                    try (var result = connection.createStatement().executeQuery("SELECT 1")) {
                        result.next();
                        return result.getInt(1);
                    }
                });
                assertEquals(1, answer, "the pool hands out a working connection afterwards");
            }
        });
    }
}
