package dev.scorecast.server;

import dev.scorecast.server.analysis.AnalysisEngine;
import dev.scorecast.server.analysis.EngineAnalysis;
import dev.scorecast.server.config.ServerConfig;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/** A real server on a free port over a temporary data directory, with two users' keys. */
final class TestServer implements AutoCloseable {
    final Path dataDir;
    final Map<String, String> env;
    final AnalysisEngine engine;
    /** The time every part of the server reads: the system's, or a {@link VirtualClock} a test moves. */
    final Clock clock;

    ScorecastServer server;
    private boolean closed;
    final String aliceKey;
    final String bobKey;

    private TestServer(Path dataDir, Map<String, String> env, AnalysisEngine engine) {
        this(dataDir, env, engine, Clock.systemUTC());
    }

    private TestServer(Path dataDir, Map<String, String> env, AnalysisEngine engine, Clock clock) {
        this.dataDir = dataDir;
        this.env = env;
        this.engine = engine;
        this.clock = clock;
        this.server = ScorecastServer.start(config(), engine, clock);
        this.aliceKey = server.keys().create("alice");
        this.bobKey = server.keys().create("bob");
    }

    static TestServer start(Path dataDir) {
        return start(dataDir, Map.of());
    }

    /** {@code overrides} are SCORECAST_* settings, e.g. a small chunk limit. */
    static TestServer start(Path dataDir, Map<String, String> overrides) {
        return start(dataDir, overrides, EngineAnalysis.create());
    }

    /** A server on {@code clock}'s time: expiry and TTLs move when the test moves the clock. */
    static TestServer start(Path dataDir, Map<String, String> overrides, Clock clock) {
        return new TestServer(dataDir, environment(dataDir, overrides), EngineAnalysis.create(), clock);
    }

    /** A server whose analyses run {@code engine} instead of the real one. */
    static TestServer start(Path dataDir, Map<String, String> overrides, AnalysisEngine engine) {
        return new TestServer(dataDir, environment(dataDir, overrides), engine);
    }

    /** A server whose analyses run {@code engine}, on {@code clock}'s time. */
    static TestServer start(Path dataDir, Map<String, String> overrides, AnalysisEngine engine, Clock clock) {
        return new TestServer(dataDir, environment(dataDir, overrides), engine, clock);
    }

    private static Map<String, String> environment(Path dataDir, Map<String, String> overrides) {
        var env = new HashMap<String, String>(overrides);
        env.put("SCORECAST_DATA", dataDir.toString());
        env.put("SCORECAST_HOST", "127.0.0.1");
        // The suite's users open hundreds of uploads on one server; QuotaTest sets its own small quotas.
        env.putIfAbsent("SCORECAST_QUOTA_UPLOADS", "1000");
        env.putIfAbsent("SCORECAST_QUOTA_ANALYSES", "100");
        env.putIfAbsent("SCORECAST_MIN_FREE_BYTES", "0");
        // Tests send many wrong keys from 127.0.0.1 on purpose; HealthTest sets its own small allowance.
        env.putIfAbsent("SCORECAST_AUTH_FAILURES_PER_MINUTE", "1000000");
        // The small General MIDI bank CI installs; FluidR3 (the default) sounds better but loads slower.
        env.putIfAbsent("SCORECAST_SOUNDFONT", "/usr/share/sounds/sf2/TimGM6mb.sf2");
        // Dozens of servers start in the suite; warming each one's player would only cost time.
        env.putIfAbsent("SCORECAST_LIVE_WARMUP_SECONDS", "0");
        return env;
    }

    private ServerConfig config() {
        return ServerConfig.from(env).withPort(0);
    }

    /** Stops the server and starts a new one on the same data directory (a restart). */
    void restart() {
        server.close();
        server = ScorecastServer.start(config(), engine, clock);
    }

    /**
     * One number read straight from the server's database (what a race may have left behind),
     * e.g. {@code count("SELECT COUNT(*) FROM jobs WHERE owner = ?", "alice")}.
     */
    long count(String sql, Object... args) throws SQLException {
        try (var connection = DriverManager.getConnection(config().dbUrl());
                var statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                statement.setObject(i + 1, args[i]);
            }
            try (var rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    /** Changes the server's database behind its back, e.g. to end jobs a test's api node never runs. */
    void update(String sql) throws SQLException {
        try (var connection = DriverManager.getConnection(config().dbUrl());
                var statement = connection.createStatement()) {
            statement.executeUpdate(sql);
        }
    }

    int port() {
        return server.port();
    }

    Api api(String key) {
        return new Api("http://127.0.0.1:" + server.port(), key);
    }

    Api alice() {
        return api(aliceKey);
    }

    Api bob() {
        return api(bobKey);
    }

    /** Stops the server; a test that stopped it early (a node going away) is not stopped twice. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            server.close();
        }
    }
}
