package dev.scorecast.server.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * The metadata store: SQLite in the data directory by default, PostgreSQL when
 * {@code SCORECAST_DB_URL} points at one. Opening it applies pending migrations.
 */
public final class Database implements AutoCloseable {
    private final HikariDataSource dataSource;
    private final boolean sqlite;

    private Database(HikariDataSource dataSource, boolean sqlite) {
        this.dataSource = dataSource;
        this.sqlite = sqlite;
    }

    /**
     * The database's URL as it may be shown (a log, a terminal): without a password or credentials,
     * which PostgreSQL URLs may carry as {@code user:password@} or as {@code password=} parameters.
     */
    public static String describe(String jdbcUrl) {
        return jdbcUrl.replaceAll("//[^/@]*@", "//")
                .replaceAll("(?i)([?&;](password|sslpassword|sslkey|user)=)[^&;]*", "$1***");
    }

    /** How long a caller waits for a pooled PostgreSQL connection before the call answers 503: never the pool's 30 s default. */
    static final long POOL_WAIT_MILLIS = 3_000;
    /** pgjdbc's limits, unless the URL sets its own: a connect, a socket read (a half-open connection), a statement. */
    static final Map<String, String> POSTGRES_LIMITS = Map.of(
            "connectTimeout",
            "5",
            "socketTimeout",
            "60",
            "tcpKeepAlive",
            "true",
            "options",
            "-c statement_timeout=30000");

    public static Database open(String jdbcUrl) {
        boolean sqlite = jdbcUrl.startsWith("jdbc:sqlite:");
        if (!sqlite) {
            // Migrations run on their own connections without the statement limit (an index on a large table may take
            // longer).
            migrate(pool(jdbcUrl, false, false));
            return new Database(pool(jdbcUrl, false, true), false);
        }
        HikariDataSource dataSource = pool(jdbcUrl, true, false);
        migrate(dataSource);
        return new Database(dataSource, true);
    }

    /** Runs the migrations on {@code dataSource}, closing it when they fail (and, for PostgreSQL's separate pool, when they are done). */
    private static void migrate(HikariDataSource dataSource) {
        try {
            Flyway.configure()
                    .dataSource(dataSource)
                    .locations("classpath:db/migration")
                    .load()
                    .migrate();
        } catch (RuntimeException e) {
            dataSource.close();
            throw e;
        }
        if (!dataSource.getJdbcUrl().startsWith("jdbc:sqlite:")) {
            dataSource.close();
        }
    }

    private static HikariDataSource pool(String jdbcUrl, boolean sqlite, boolean limited) {
        var config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setPoolName("scorecast-db");
        if (sqlite) {
            createParentDirectory(jdbcUrl.substring("jdbc:sqlite:".length()));
            // WAL lets readers run beside the one writer; IMMEDIATE transactions take the write lock
            // up front, so concurrent workers wait on busy_timeout instead of failing mid-transaction.
            config.addDataSourceProperty("journal_mode", "WAL");
            config.addDataSourceProperty("busy_timeout", "30000");
            config.addDataSourceProperty("transaction_mode", "IMMEDIATE");
            // FULL: a commit is synced before it returns, so what a client was told is stored survives a
            // power cut (docs/RELIABILITY.md promises it). NORMAL in WAL mode may lose the last commits to
            // one; it was 40 times faster (0.05 ms a commit against 2 to 3.4 ms here), but a node commits
            // a few times a second (progress is throttled), far below the 300 a second FULL still makes.
            config.addDataSourceProperty("synchronous", "FULL");
            config.addDataSourceProperty("foreign_keys", "true");
            config.setMaximumPoolSize(8);
        } else {
            config.setMaximumPoolSize(16);
            String lower = jdbcUrl.toLowerCase(Locale.ROOT);
            POSTGRES_LIMITS.forEach((name, value) -> {
                if (!lower.contains(name.toLowerCase(Locale.ROOT) + "=") && (limited || !name.equals("options"))) {
                    config.addDataSourceProperty(name, value);
                }
            });
            config.setConnectionTimeout(POOL_WAIT_MILLIS);
            config.setValidationTimeout(2_000);
            // Idle connections are tested now and then, so a connection the network dropped is found before a request
            // takes it.
            config.setKeepaliveTime(60_000);
        }
        return new HikariDataSource(config);
    }

    /**
     * Whether {@code e} (or a cause) says the database did not answer (a connection refused or lost,
     * no pooled connection within {@link #POOL_WAIT_MILLIS}, a statement past its limit) rather than
     * that a request was wrong: the caller answers 503 with Retry-After.
     */
    public static boolean unavailable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLTransientConnectionException
                    || t instanceof SQLRecoverableException
                    || t instanceof SocketTimeoutException
                    || t instanceof ConnectException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                String state = sql.getSQLState();
                if (state.startsWith("08")
                        || state.equals("57P01")
                        || state.equals("57P02")
                        || state.equals("57P03")
                        || state.equals("57014")) {
                    return true; // connection exceptions, an administrator's shutdown, a crash of another server
                    // process, starting up, a statement cancelled by its timeout
                }
            }
        }
        return false;
    }

    private static void createParentDirectory(String file) {
        Path parent = Path.of(file).toAbsolutePath().getParent();
        try {
            Files.createDirectories(parent);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create the database directory " + parent, e);
        }
    }

    public DataSource dataSource() {
        return dataSource;
    }

    public boolean isSqlite() {
        return sqlite;
    }

    /**
     * The clause that locks selected rows until the transaction ends. SQLite needs none: its
     * IMMEDIATE transactions already hold the database's single write lock.
     */
    public String forUpdate() {
        return sqlite ? "" : " FOR UPDATE";
    }

    /** What {@link #afterCommit} collected for the transaction running on this thread. */
    private static final ThreadLocal<List<Runnable>> AFTER_COMMIT = new ThreadLocal<>();

    /** Runs {@code work} in one transaction, committed when it returns and rolled back when it throws. */
    public <T> T transaction(SqlWork<T> work) {
        var afterCommit = new ArrayList<Runnable>();
        var outer = AFTER_COMMIT.get();
        AFTER_COMMIT.set(afterCommit);
        T result;
        try (Connection connection = dataSource.getConnection()) {
            try {
                connection.setAutoCommit(false);
                result = work.run(connection);
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                rollback(connection, e);
                throw e;
            }
        } catch (SQLException e) {
            throw new DatabaseException(e);
        } finally {
            AFTER_COMMIT.set(outer);
        }
        afterCommit.forEach(Runnable::run);
        return result;
    }

    /**
     * Rolls back after {@code failure}, keeping {@code failure} as what the caller sees. A connection the
     * database dropped fails its rollback too (the pool closed it on the first error, and a closed
     * connection says only "Connection is closed", with no SQLSTATE): thrown, that second failure
     * hid the lost connection, and the caller answered 500 where it should answer 503 (stop 34's CI).
     */
    private static void rollback(Connection connection, Exception failure) {
        try {
            connection.rollback();
        } catch (SQLException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    /**
     * Runs {@code action} once the transaction running on this thread has committed (at once when
     * none runs); never when it rolls back. For telling another thread to look at rows this
     * transaction writes: told earlier, it could look before they are there.
     */
    public static void afterCommit(Runnable action) {
        var pending = AFTER_COMMIT.get();
        if (pending == null) {
            action.run();
        } else {
            pending.add(action);
        }
    }

    /** Runs {@code work} on a connection in auto-commit mode (single statements, reads). */
    public <T> T query(SqlWork<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            return work.run(connection);
        } catch (SQLException e) {
            throw new DatabaseException(e);
        }
    }

    @Override
    public void close() {
        dataSource.close();
    }

    /** A unit of JDBC work. */
    @FunctionalInterface
    public interface SqlWork<T> {
        T run(Connection connection) throws SQLException;
    }

    /** A failure of the database itself, never of the caller's input. */
    public static final class DatabaseException extends RuntimeException {
        DatabaseException(SQLException cause) {
            super(cause.getMessage(), cause);
        }
    }
}
