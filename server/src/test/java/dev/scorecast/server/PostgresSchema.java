package dev.scorecast.server;

import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;

/**
 * A fresh schema of the test PostgreSQL server for one test, dropped afterwards. CI machines run
 * PostgreSQL, so there a missing server fails the test; elsewhere it skips.
 */
public final class PostgresSchema {
    public static final String SERVER = System.getenv()
            .getOrDefault("SCORECAST_TEST_POSTGRES", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");

    private PostgresSchema() {}

    /** What runs against the schema, given its JDBC URL. */
    @FunctionalInterface
    public interface WithDatabase {
        void run(String jdbcUrl) throws Exception;
    }

    /** Runs {@code test} on a fresh schema of the test server, dropped afterwards. */
    public static void run(WithDatabase test) throws Exception {
        String schema = "scorecast_test_"
                + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (var connection = DriverManager.getConnection(SERVER)) {
            connection.createStatement().execute("CREATE SCHEMA " + schema);
        } catch (SQLException e) {
            if (System.getenv("CI") != null) {
                throw e;
            }
            Assumptions.abort("PostgreSQL is not reachable at " + SERVER + ": " + e.getMessage());
        }
        try {
            test.run(SERVER + "&currentSchema=" + schema);
        } finally {
            try (var connection = DriverManager.getConnection(SERVER)) {
                connection.createStatement().execute("DROP SCHEMA " + schema + " CASCADE");
            }
        }
    }
}
