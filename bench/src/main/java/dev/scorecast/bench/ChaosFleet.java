package dev.scorecast.bench;

import dev.scorecast.server.auth.ApiKeys;
import dev.scorecast.server.db.Database;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The scale-out fleet of docs/SCALE-OUT.md on one machine, for fault campaigns: a PostgreSQL of its
 * own (initdb and pg_ctl on a free port in a temporary directory, never the machine's shared
 * server), S3Proxy over a directory as the S3 store (what the test suite uses as S3), one api node
 * and one or two worker nodes, each the server jar as its own process. Every part can be faulted:
 * PostgreSQL restarted or paused, the store paused or stopped, a worker's data directory on a small
 * tmpfs, a worker's clock ahead.
 */
final class ChaosFleet implements AutoCloseable {
    static final String BUCKET = "chaos";
    static final String PREFIX = "run";
    private static final String S3_IDENTITY = "chaos";
    private static final String S3_CREDENTIAL = "chaos-secret";

    final Path root;
    final Postgres postgres;
    final S3Store store;
    final List<ServerProcess> nodes = new ArrayList<>();
    ServerProcess api;
    final List<ServerProcess> workers = new ArrayList<>();
    /** Worker data directories mounted as tmpfs (unmounted on close). */
    private final List<Path> mounts = new ArrayList<>();

    private ChaosFleet(Path root, Postgres postgres, S3Store store) {
        this.root = root;
        this.postgres = postgres;
        this.store = store;
    }

    /**
     * Starts the database and the store, makes {@code users} keys, then the nodes. {@code workerOffsets}
     * holds one clock offset in seconds per worker; {@code workerTmpfsMib} above 0 puts the first
     * worker's data directory on a tmpfs of that size.
     */
    static ChaosFleet start(
            Path repository,
            Path root,
            List<String> users,
            List<Integer> workerOffsets,
            int workerTmpfsMib,
            Map<String, String> extra)
            throws Exception {
        Files.createDirectories(root);
        // PostgreSQL runs as its own user, which must be able to reach its directory.
        run(List.of("chmod", "755", root.toString()));
        Postgres postgres = Postgres.start(root.resolve("pg"));
        S3Store store = S3Store.start(repository, root.resolve("s3"));
        var fleet = new ChaosFleet(root, postgres, store);
        try {
            fleet.keys = new HashMap<>();
            try (Database database = Database.open(postgres.url())) {
                ApiKeys keys = new ApiKeys(database, Clock.systemUTC());
                for (String user : users) {
                    fleet.keys.put(user, keys.create(user));
                }
            }
            String anyKey = fleet.keys.values().iterator().next();
            int apiPort = freePort();
            Map<String, String> common = new HashMap<>(Map.of(
                    "SCORECAST_DB_URL",
                    postgres.url(),
                    "SCORECAST_STORAGE_URL",
                    "s3://" + BUCKET + "/" + PREFIX,
                    "SCORECAST_S3_ENDPOINT",
                    store.endpoint(),
                    "AWS_ACCESS_KEY_ID",
                    S3_IDENTITY,
                    "AWS_SECRET_ACCESS_KEY",
                    S3_CREDENTIAL,
                    "AWS_REGION",
                    "us-east-1",
                    "SCORECAST_SOUNDFONT",
                    "/usr/share/sounds/sf2/TimGM6mb.sf2",
                    "SCORECAST_LIVE_WARMUP_SECONDS",
                    "0",
                    "SCORECAST_MIN_FREE_BYTES",
                    String.valueOf(16L << 20)));
            common.put("SCORECAST_PUBLIC_DOWNLOADS", "proxied");
            common.putAll(extra);
            var apiSettings = new HashMap<>(common);
            apiSettings.put("SCORECAST_PUBLIC_URL", "http://127.0.0.1:" + apiPort);
            apiSettings.put("SCORECAST_NODE_URL", "http://127.0.0.1:" + apiPort);
            fleet.api = ServerProcess.startNode(repository, root.resolve("api"), apiPort, "api", anyKey, apiSettings);
            fleet.nodes.add(fleet.api);
            for (int i = 0; i < workerOffsets.size(); i++) {
                Path data = root.resolve("worker-" + i);
                Files.createDirectories(data);
                if (i == 0 && workerTmpfsMib > 0) {
                    run(List.of(
                            "mount", "-t", "tmpfs", "-o", "size=" + workerTmpfsMib + "m", "tmpfs", data.toString()));
                    fleet.mounts.add(data);
                }
                var settings = new HashMap<>(common);
                int port = freePort();
                settings.put("SCORECAST_PUBLIC_URL", "http://127.0.0.1:" + apiPort);
                settings.put("SCORECAST_NODE_URL", "http://127.0.0.1:" + port);
                settings.put("SCORECAST_CLOCK_OFFSET_SECONDS", String.valueOf(workerOffsets.get(i)));
                ServerProcess worker = ServerProcess.startNode(repository, data, port, "worker", anyKey, settings);
                fleet.workers.add(worker);
                fleet.nodes.add(worker);
            }
            return fleet;
        } catch (Exception e) {
            fleet.close();
            throw e;
        }
    }

    Map<String, String> keys;

    @Override
    public void close() {
        for (ServerProcess node : nodes) {
            try {
                node.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (Path mount : mounts) {
            try {
                run(List.of("umount", "-l", mount.toString()));
            } catch (RuntimeException e) {
                System.err.println("chaos: could not unmount " + mount + ": " + e.getMessage());
            }
        }
        store.close();
        postgres.close();
        try (var paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // what is left is in a temporary directory
        }
    }

    static int freePort() throws IOException {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Runs a command to its end; its output when it fails. */
    static String run(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Sends {@code signal} (STOP, CONT) to the processes {@code pids}, each by its id. */
    static void signal(String signal, List<Long> pids) {
        if (pids.isEmpty()) {
            return;
        }
        List<String> command = new ArrayList<>(List.of("kill", "-" + signal));
        pids.forEach(pid -> command.add(String.valueOf(pid)));
        run(command);
    }

    /** A PostgreSQL cluster of the campaign's own. */
    static final class Postgres implements AutoCloseable {
        final Path dir;
        final int port;
        private final Path bin;

        private Postgres(Path dir, int port, Path bin) {
            this.dir = dir;
            this.port = port;
            this.bin = bin;
        }

        static Postgres start(Path dir) throws IOException {
            Path bin;
            try (var versions = Files.list(Path.of("/usr/lib/postgresql"))) {
                bin = versions.map(v -> v.resolve("bin"))
                        .filter(b -> Files.isExecutable(b.resolve("initdb")))
                        .max(Comparator.comparing(b -> Integer.parseInt(
                                b.getParent().getFileName().toString().replaceAll("\\D", "0"))))
                        .orElseThrow(() -> new IllegalStateException(
                                "no PostgreSQL in /usr/lib/postgresql (apt-get install postgresql)"));
            }
            Files.createDirectories(dir);
            run(List.of("chown", "postgres:postgres", dir.toString()));
            var pg = new Postgres(dir, freePort(), bin);
            pg.asPostgres(List.of(
                    bin.resolve("initdb").toString(),
                    "-D",
                    dir.resolve("data").toString(),
                    "-A",
                    "trust",
                    "-U",
                    "postgres",
                    "-E",
                    "UTF8"));
            pg.startServer();
            pg.asPostgres(List.of(
                    bin.resolve("createdb").toString(),
                    "-h",
                    "127.0.0.1",
                    "-p",
                    String.valueOf(pg.port),
                    "-U",
                    "postgres",
                    "scorecast"));
            return pg;
        }

        String url() {
            return "jdbc:postgresql://127.0.0.1:" + port + "/scorecast?user=postgres";
        }

        void startServer() {
            asPostgres(List.of(
                    bin.resolve("pg_ctl").toString(),
                    "-D",
                    dir.resolve("data").toString(),
                    "-l",
                    dir.resolve("log").toString(),
                    "-w",
                    "-t",
                    "60",
                    "-o",
                    "-p " + port + " -c listen_addresses=127.0.0.1 -k " + dir + " -c max_connections=200",
                    "start"));
        }

        /** Shuts the server down with {@code mode} (fast: clients cut off; immediate: no checkpoint, crash recovery at the next start). */
        void stopServer(String mode) {
            asPostgres(List.of(
                    bin.resolve("pg_ctl").toString(),
                    "-D",
                    dir.resolve("data").toString(),
                    "-m",
                    mode,
                    "-w",
                    "-t",
                    "60",
                    "stop"));
        }

        /** The postmaster and every process it started. */
        List<Long> pids() throws IOException {
            long postmaster = Long.parseLong(Files.readAllLines(dir.resolve("data/postmaster.pid"))
                    .getFirst()
                    .strip());
            List<Long> pids = new ArrayList<>(List.of(postmaster));
            ProcessHandle.of(postmaster).ifPresent(p -> p.descendants().forEach(d -> pids.add(d.pid())));
            return pids;
        }

        private void asPostgres(List<String> command) {
            List<String> full = new ArrayList<>(List.of("runuser", "-u", "postgres", "--"));
            full.addAll(command);
            run(full);
        }

        @Override
        public void close() {
            try {
                signal("CONT", pids());
                stopServer("immediate");
            } catch (RuntimeException | IOException e) {
                // already stopped
            }
        }
    }

    /** S3Proxy over a directory, as its own process, on a fixed port across stops and starts. */
    static final class S3Store implements AutoCloseable {
        final Path dir;
        final int port;
        private final Path jar;
        private Process process;

        private S3Store(Path dir, int port, Path jar) {
            this.dir = dir;
            this.port = port;
            this.jar = jar;
        }

        static S3Store start(Path repository, Path dir) throws IOException {
            Path jar = repository.resolve("server/target/s3proxy/s3proxy.jar");
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException(
                        jar + " is missing: the server's build copies it (mvn -pl server process-test-resources)");
            }
            var store = new S3Store(dir, freePort(), jar);
            Files.createDirectories(dir.resolve("objects").resolve(BUCKET));
            Files.writeString(
                    dir.resolve("s3proxy.conf"),
                    String.join(
                                    "\n",
                                    "s3proxy.endpoint=http://127.0.0.1:" + store.port,
                                    "s3proxy.authorization=aws-v2-or-v4",
                                    "s3proxy.identity=" + S3_IDENTITY,
                                    "s3proxy.credential=" + S3_CREDENTIAL,
                                    "jclouds.provider=filesystem",
                                    "jclouds.filesystem.basedir="
                                            + dir.resolve("objects").toAbsolutePath())
                            + "\n");
            store.startServer();
            return store;
        }

        String endpoint() {
            return "http://127.0.0.1:" + port;
        }

        /** Where the objects of the fleet's prefix are on disk. */
        Path objects() {
            return dir.resolve("objects").resolve(BUCKET).resolve(PREFIX);
        }

        synchronized void startServer() {
            try {
                String java =
                        Path.of(System.getProperty("java.home"), "bin", "java").toString();
                process = new ProcessBuilder(List.of(
                                java,
                                "-Xmx256m",
                                "-XX:TieredStopAtLevel=1",
                                "-jar",
                                jar.toString(),
                                "--properties",
                                dir.resolve("s3proxy.conf").toString()))
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(
                                dir.resolve("s3proxy.log").toFile()))
                        .start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (System.nanoTime() < deadline) {
                try (var socket = new Socket("127.0.0.1", port)) {
                    return;
                } catch (IOException notYet) {
                    try {
                        Thread.sleep(100);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
            throw new IllegalStateException("S3Proxy did not start on " + port);
        }

        synchronized void stopServer() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }

        synchronized long pid() {
            return process.pid();
        }

        @Override
        public synchronized void close() {
            if (process != null && process.isAlive()) {
                signal("CONT", List.of(process.pid()));
                process.destroyForcibly();
            }
        }
    }
}
