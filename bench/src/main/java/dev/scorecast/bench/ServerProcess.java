package dev.scorecast.bench;

import dev.scorecast.server.auth.ApiKeys;
import dev.scorecast.server.db.Database;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * {@code bin/scorecast serve} as a child process on a fresh data directory and a free port, so a
 * benchmark measures the server as users run it, apart from the benchmark's own memory.
 */
final class ServerProcess implements AutoCloseable {
    final Process process;
    final String baseUrl;
    final String apiKey;
    final Path dataDir;
    /** Lines of the server's log that carry ERROR or an exception, and the first few of them. */
    final AtomicLong errorLines;

    final List<String> firstErrors;

    /**
     * The first request the server answered 500 ("unexpected failure", ApiErrors), with the stack
     * trace lines after it: what a benchmark that saw a 500 prints, since the data directory and its
     * log are gone when it reports.
     */
    final List<String> firstUnexpected;

    private ServerProcess(
            Process process,
            String baseUrl,
            String apiKey,
            Path dataDir,
            AtomicLong errorLines,
            List<String> firstErrors,
            List<String> firstUnexpected) {
        this.process = process;
        this.baseUrl = baseUrl;
        this.apiKey = apiKey;
        this.dataDir = dataDir;
        this.errorLines = errorLines;
        this.firstErrors = firstErrors;
        this.firstUnexpected = firstUnexpected;
    }

    static ServerProcess start(Path repository, Path dataDir) throws IOException, InterruptedException {
        // The SoundFont is not needed for uploads; skip installing it.
        return start(repository, dataDir, Map.of("SCORECAST_SOUNDFONT", "/dev/null"));
    }

    /**
     * As {@link #start(Path, Path)}, with extra {@code SCORECAST_*} settings for the server; an
     * empty value removes a variable inherited from this process, so the server's default applies.
     */
    static ServerProcess start(Path repository, Path dataDir, Map<String, String> settings)
            throws IOException, InterruptedException {
        return start(List.of(repository.resolve("bin/scorecast").toString(), "serve"), dataDir, settings);
    }

    /**
     * The server jar run directly with the JVM of this benchmark and the flags bin/scorecast uses
     * (the jar must be built: bin/scorecast bench builds it), with extra settings as above.
     */
    static ServerProcess startJar(Path repository, Path dataDir, Map<String, String> settings)
            throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        Path prefs = dataDir.resolve(".java-prefs");
        Files.createDirectories(prefs);
        return start(
                List.of(
                        java,
                        "-Djava.util.prefs.userRoot=" + prefs,
                        "-jar",
                        repository.resolve("server/target/scorecast-server.jar").toString(),
                        "serve"),
                dataDir,
                settings);
    }

    /**
     * One node of a fleet on PostgreSQL (which prints no development key): the server jar run as
     * {@code serve --role ROLE} on {@code port}, ready once its {@code /healthz} answers; {@code apiKey} is
     * a key made in the shared database beforehand.
     */
    static ServerProcess startNode(
            Path repository, Path dataDir, int port, String role, String apiKey, Map<String, String> settings)
            throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        Path prefs = dataDir.resolve(".java-prefs");
        Files.createDirectories(prefs);
        return start(
                List.of(
                        java,
                        "-Djava.util.prefs.userRoot=" + prefs,
                        "-jar",
                        repository.resolve("server/target/scorecast-server.jar").toString(),
                        "serve",
                        "--role",
                        role),
                dataDir,
                settings,
                port,
                apiKey);
    }

    private static ServerProcess start(List<String> command, Path dataDir, Map<String, String> settings)
            throws IOException, InterruptedException {
        int port;
        try (var socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        return start(command, dataDir, settings, port, null);
    }

    /** With {@code givenKey} null, ready when the server prints its development key; otherwise when /healthz answers. */
    private static ServerProcess start(
            List<String> command, Path dataDir, Map<String, String> settings, int port, String givenKey)
            throws IOException, InterruptedException {
        var builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("SCORECAST_DATA", dataDir.toString());
        builder.environment().put("SCORECAST_PORT", String.valueOf(port));
        builder.environment().put("SCORECAST_HOST", "127.0.0.1");
        // Links (results.json, outputs) on the address the server listens on, not "localhost", which may resolve to
        // ::1.
        builder.environment().put("SCORECAST_PUBLIC_URL", "http://127.0.0.1:" + port);
        settings.forEach((name, value) -> {
            if (value.isEmpty()) {
                builder.environment().remove(name);
            } else {
                builder.environment().put(name, value);
            }
        });
        Process process = builder.start();
        var key = new CompletableFuture<String>();
        var errors = new AtomicLong();
        List<String> firstErrors = new CopyOnWriteArrayList<>();
        List<String> firstUnexpected = new CopyOnWriteArrayList<>();
        // The last lines of its log, to say why when it does not start.
        var lastLines = new ConcurrentLinkedDeque<String>();
        Thread.ofPlatform().daemon().start(() -> {
            try (var lines = new BufferedReader(new InputStreamReader(process.getInputStream()))) {
                String line;
                int traceLinesLeft = 0;
                while ((line = lines.readLine()) != null) {
                    if (firstUnexpected.isEmpty() && line.contains("unexpected failure on")) {
                        traceLinesLeft = 25;
                    }
                    if (traceLinesLeft > 0) {
                        firstUnexpected.add(line);
                        traceLinesLeft--;
                    }
                    int at = line.indexOf("sc_");
                    if (line.startsWith("Development API key") && at >= 0) {
                        key.complete(line.substring(at).strip());
                    }
                    if (line.contains(" ERROR ") || line.contains("Exception") || line.contains("OutOfMemoryError")) {
                        errors.incrementAndGet();
                        if (firstErrors.size() < 5) {
                            firstErrors.add(line);
                        }
                    }
                    lastLines.addLast(line);
                    if (lastLines.size() > 20) {
                        lastLines.pollFirst();
                    }
                    if (System.getenv("SCORECAST_BENCH_VERBOSE") != null) {
                        System.err.println("[server] " + line);
                    }
                }
            } catch (IOException ignored) {
                // The server ended.
            }
            key.completeExceptionally(new IllegalStateException("the server ended before printing its key"));
        });
        try {
            if (givenKey != null) {
                awaitHealthy("http://127.0.0.1:" + port, process);
                return new ServerProcess(
                        process, "http://127.0.0.1:" + port, givenKey, dataDir, errors, firstErrors, firstUnexpected);
            }
            String apiKey = key.get(300, TimeUnit.SECONDS);
            return new ServerProcess(
                    process, "http://127.0.0.1:" + port, apiKey, dataDir, errors, firstErrors, firstUnexpected);
        } catch (Exception e) {
            boolean exited = !process.isAlive();
            process.destroyForcibly();
            throw new IllegalStateException(
                    "the server did not start" + (exited ? " (it exited)" : "") + "; its last lines:\n"
                            + String.join("\n", lastLines),
                    e);
        }
    }

    private static void awaitHealthy(String baseUrl, Process process) throws InterruptedException {
        var client = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + 300_000_000_000L;
        while (System.nanoTime() < deadline && process.isAlive()) {
            try {
                var answer = client.send(
                        HttpRequest.newBuilder(URI.create(baseUrl + "/healthz"))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                if (answer.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("the node at " + baseUrl + " did not become healthy");
    }

    /** New API keys for users {@code prefix-0} .. {@code prefix-(n-1)}, made in the server's database while it runs, as {@code scorecast keys create} does. */
    List<String> createKeys(String prefix, int n) throws Exception {
        List<String> keys = new ArrayList<>();
        try (Database db = Database.open("jdbc:sqlite:" + dataDir.resolve("scorecast.db"))) {
            ApiKeys apiKeys = new ApiKeys(db, Clock.systemUTC());
            for (int i = 0; i < n; i++) {
                keys.add(apiKeys.create(prefix + "-" + i));
            }
        }
        return keys;
    }

    long pid() {
        return process.pid();
    }

    /** The server JVM's threads (Java and native: FFmpeg's, ONNX Runtime's), from /proc/PID/status. */
    int threads() throws IOException {
        return (int) statusField("Threads:");
    }

    /** File descriptors the server holds open (sockets, files, pipes): the entries of /proc/PID/fd. */
    int openFiles() throws IOException {
        try (var fds = Files.list(Path.of("/proc/" + process.pid() + "/fd"))) {
            return (int) fds.count();
        }
    }

    /** Heap in use now (no collection), in bytes: {@code jcmd PID GC.heap_info}'s "used". */
    long heapUsed() throws IOException, InterruptedException {
        String info = jcmd("GC.heap_info");
        var used = Pattern.compile("heap\\s+total[^\\n]*?used (\\d+)K").matcher(info);
        if (!used.find()) {
            throw new IllegalStateException("no heap figure in jcmd GC.heap_info: " + info);
        }
        return Long.parseLong(used.group(1)) * 1024;
    }

    /**
     * {@code jcmd PID GC.run}: System.gc() in the server, a stop-the-world full collection unless the server
     * runs with -XX:+ExplicitGCInvokesConcurrent, where it starts a concurrent cycle. The JDK's own jcmd beside this JVM.
     */
    void startConcurrentGc() throws IOException, InterruptedException {
        jcmd("GC.run");
    }

    private String jcmd(String command) throws IOException, InterruptedException {
        Path java = Path.of(ProcessHandle.current().info().command().orElse("java"));
        String jcmd =
                java.getParent() == null ? "jcmd" : java.resolveSibling("jcmd").toString();
        Process p = new ProcessBuilder(jcmd, String.valueOf(process.pid()), command)
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("jcmd " + command + " failed: " + out);
        }
        return out;
    }

    private long statusField(String name) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
            if (line.startsWith(name)) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no " + name + " for " + process.pid());
    }

    /** Resident memory of the server's JVM (the java child of bin/scorecast), in bytes. */
    long residentBytes() throws IOException {
        // bin/scorecast execs java, so the process is the JVM itself.
        return statusField("VmRSS:") * 1024;
    }

    /**
     * CPU time the server's JVM has used so far, all its threads (FFmpeg's and Gervill's included),
     * in seconds; from /proc/PID/stat (utime + stime, in hundredths of a second on Linux).
     */
    double cpuSeconds() throws IOException {
        return cpuSecondsOf(Files.readString(Path.of("/proc/" + process.pid() + "/stat")));
    }

    /** utime + stime of a /proc stat line (a process's or a thread's), in seconds. */
    private static double cpuSecondsOf(String stat) {
        // The command name (field 2) may hold spaces; count the fields after its closing parenthesis.
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0; // fields 14 and 15 of the whole line
    }

    /**
     * CPU time the server JVM's JIT compiler threads have used so far (HotSpot's "C1 CompilerThre..."
     * and "C2 CompilerThre..." threads), in seconds; from /proc/PID/task/TID/stat. A compiler thread
     * that has ended takes its time with it (HotSpot starts and stops them as the queue asks), so
     * differences over a run can read a little low, never high.
     */
    double jitCpuSeconds() throws IOException {
        double total = 0;
        try (var tasks = Files.list(Path.of("/proc/" + process.pid() + "/task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
                        total += cpuSecondsOf(stat);
                    }
                } catch (NoSuchFileException ended) {
                    // a thread that ended between the listing and the read
                }
            }
        }
        return total;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    static Duration since(Instant start) {
        return Duration.between(start, Instant.now());
    }
}
