package dev.scorecast.server;

import dev.scorecast.server.auth.ApiKeys;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.storage.S3Proxy;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Assumptions;

/**
 * Server processes as production runs them, on this machine: a schema of the test PostgreSQL server,
 * a real S3 server (S3Proxy) for every file, and any number of {@code scorecast serve --role} nodes,
 * each with its own data directory and log under {@code dir}. ScaleOutTest's campaign and
 * ScaleOutThroughputTest's benchmark each open one of their own.
 */
final class Fleet implements AutoCloseable {
    static final String BUCKET = "scorecast";
    /** Answers held to /openapi.json (CheckedHttpClient). */
    private static final HttpClient HTTP = CheckedHttpClient.of(
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build());

    final Path dir;
    final String schema;
    final String dbUrl;
    final S3Proxy store;
    /** An API key of the user "alice", made straight in the database. */
    final String key;

    private Fleet(Path dir, String schema, String dbUrl, S3Proxy store, String key) {
        this.dir = dir;
        this.schema = schema;
        this.dbUrl = dbUrl;
        this.store = store;
        this.key = key;
    }

    /** A new schema and store under {@code dir}; without PostgreSQL the test is skipped (failed on CI, which runs it). */
    static Fleet open(Path dir, String name) throws Exception {
        String schema = "scorecast_" + name + "_"
                + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        try (var connection = DriverManager.getConnection(PostgresSchema.SERVER)) {
            connection.createStatement().execute("CREATE SCHEMA " + schema);
        } catch (SQLException e) {
            if (System.getenv("CI") != null) {
                throw e;
            }
            Assumptions.abort("PostgreSQL is not reachable at " + PostgresSchema.SERVER + ": " + e.getMessage());
        }
        String dbUrl = PostgresSchema.SERVER + "&currentSchema=" + schema;
        String key;
        try (Database database = Database.open(dbUrl)) {
            key = new ApiKeys(database, Clock.systemUTC()).create("alice");
        }
        return new Fleet(dir, schema, dbUrl, S3Proxy.start(dir.resolve("s3"), BUCKET), key);
    }

    @Override
    public void close() throws Exception {
        store.close();
        try (var connection = DriverManager.getConnection(PostgresSchema.SERVER)) {
            connection.createStatement().execute("DROP SCHEMA " + schema + " CASCADE");
        }
    }

    Node launch(String role, String name) {
        return launch(role, name, freePort());
    }

    Node launch(String role, String name, int port) {
        return launch(role, name, port, Map.of());
    }

    Node launch(String role, String name, int port, Map<String, String> settings) {
        Path data = dir.resolve(name);
        Path log = dir.resolve(name + ".log");
        var env = new HashMap<>(store.env(BUCKET, "fleet"));
        env.put("SCORECAST_DB_URL", dbUrl);
        env.put("SCORECAST_DATA", data.toString());
        env.put("SCORECAST_HOST", "127.0.0.1");
        env.put("SCORECAST_PORT", Integer.toString(port));
        env.put("SCORECAST_NODE_ID", "node-" + name);
        env.put("SCORECAST_PUBLIC_URL", "http://127.0.0.1:" + port);
        env.put("SCORECAST_JOB_HEARTBEAT_SECONDS", System.getenv().getOrDefault("SCORECAST_SCALEOUT_HEARTBEAT", "1"));
        env.put("SCORECAST_WORKERS", "1");
        env.put("SCORECAST_SOUNDFONT", "/usr/share/sounds/sf2/TimGM6mb.sf2");
        env.put("SCORECAST_LIVE_WARMUP_SECONDS", "0");
        env.put("SCORECAST_LIVE_THREADS", "1");
        env.put("SCORECAST_MIN_FREE_BYTES", "0");
        // This campaign fetches outputs through the api nodes (on S3 a link redirects to the store by default).
        env.put("SCORECAST_PUBLIC_DOWNLOADS", "proxied");
        env.putAll(settings);
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-exports",
                "java.desktop/com.sun.media.sound=ALL-UNNAMED",
                "--add-opens",
                "java.desktop/com.sun.media.sound=ALL-UNNAMED",
                "--enable-native-access=ALL-UNNAMED",
                "-Xmx768m",
                "-XX:+UseSerialGC",
                "-Djava.util.prefs.userRoot=" + data.resolve("prefs"),
                "-cp",
                pathingJar().toString()));
        // The build's own settings (where the repository and its speech model are) carry over.
        System.getProperties().stringPropertyNames().stream()
                .filter(key -> key.startsWith("scorecast."))
                .forEach(key -> command.add("-D" + key + "=" + System.getProperty(key)));
        command.addAll(List.of("dev.scorecast.server.cli.ScorecastCli", "serve", "--role", role));
        var builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(env);
        try {
            Files.createDirectories(data);
            return new Node(this, name, port, builder.start(), log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One server process: {@code scorecast serve --role ROLE} with its own data directory, on PostgreSQL and the store. */
    static final class Node {
        final Fleet fleet;
        final String name;
        final int port;
        final String nodeId;
        final Process process;
        final Path log;

        private Node(Fleet fleet, String name, int port, Process process, Path log) {
            this.fleet = fleet;
            this.name = name;
            this.port = port;
            this.nodeId = "node-" + name;
            this.process = process;
            this.log = log;
        }

        void awaitReady() throws Exception {
            long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            while (System.nanoTime() < deadline) {
                if (!process.isAlive()) {
                    throw new AssertionError(name + " exited: " + tail());
                }
                try {
                    if (get("/readyz").statusCode() == 200) {
                        return;
                    }
                } catch (IOException notYet) {
                    // not listening yet
                }
                Thread.sleep(200);
            }
            throw new AssertionError(name + " not ready within 120 s: " + tail());
        }

        HttpResponse<byte[]> get(String path) throws IOException, InterruptedException {
            return HTTP.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofByteArray());
        }

        Api api() {
            return new Api("http://127.0.0.1:" + port, fleet.key);
        }

        /** CPU seconds the node's process has used so far. */
        double cpuSeconds() {
            return process.info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(Double.NaN);
        }

        /** SIGKILL: no shutdown hook, no goodbye to the database. */
        void kill() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor();
        }

        String tail() throws IOException {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        }
    }

    /**
     * The test classpath as one jar whose manifest lists it, as the release jar does: a command line
     * some kilobytes long made the native speech model's loader crash the JVM (SIGSEGV) here.
     */
    private synchronized Path pathingJar() {
        Path jar = dir.resolve("classpath.jar");
        if (Files.exists(jar)) {
            return jar;
        }
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        var entries = new StringBuilder();
        for (String entry : classpath.split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                entries.append(entries.isEmpty() ? "" : " ")
                        .append(Path.of(entry).toAbsolutePath().toUri());
            }
        }
        var manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, entries.toString());
        try (var out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            return jar;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static int freePort() {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
