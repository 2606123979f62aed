package dev.scorecast.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code scorecast serve} in a JVM of its own, from the packaged jar, so that a test can kill
 * it with SIGKILL mid-work and start it again on the same data directory, as an operator's crash.
 */
final class ChildServer implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("\\(port (\\d+)\\)");

    final Process process;
    final int port;
    /** The development key, printed only by the first start on a new data directory. */
    final String firstKey;

    private ChildServer(Process process, int port, String firstKey) {
        this.process = process;
        this.port = port;
        this.firstKey = firstKey;
    }

    static ChildServer start(Path data, Map<String, String> settings) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        for (String flag : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (flag.startsWith("--add-")
                    || flag.startsWith("--enable-native-access")
                    || flag.startsWith("-Dscorecast.vad")) {
                command.add(flag);
            }
        }
        for (String property : List.of("scorecast.vad.model")) {
            if (System.getProperty(property) != null) {
                command.add("-D" + property + "=" + System.getProperty(property));
            }
        }
        // The packaged server as bin/scorecast runs it (failsafe runs this after the package phase).
        Path jar = Path.of(System.getProperty("user.dir")).resolve("target/scorecast-server.jar");
        command.addAll(List.of(
                "-Xmx1g",
                "-Djava.util.prefs.userRoot=" + data.resolve(".java-prefs"),
                "-jar",
                jar.toString(),
                "serve"));
        Files.createDirectories(data.resolve(".java-prefs"));
        var builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment()
                .putAll(Map.of(
                        "SCORECAST_DATA",
                        data.toString(),
                        "SCORECAST_PORT",
                        "0",
                        "SCORECAST_HOST",
                        "127.0.0.1",
                        "SCORECAST_SOUNDFONT",
                        "/usr/share/sounds/sf2/TimGM6mb.sf2",
                        "SCORECAST_LIVE_WARMUP_SECONDS",
                        "0",
                        "SCORECAST_MIN_FREE_BYTES",
                        "0"));
        builder.environment().putAll(settings);
        Path log = data.resolve("server-" + System.currentTimeMillis() + ".log");
        Process process = builder.start();
        var port = new CompletableFuture<Integer>();
        var key = new CompletableFuture<String>();
        Thread.ofPlatform().daemon().start(() -> {
            try (var lines = new BufferedReader(new InputStreamReader(process.getInputStream()));
                    var out = Files.newBufferedWriter(log)) {
                String line;
                while ((line = lines.readLine()) != null) {
                    out.write(line);
                    out.newLine();
                    out.flush();
                    int at = line.indexOf("sc_");
                    if (line.startsWith("Development API key") && at >= 0) {
                        key.complete(line.substring(at).strip());
                    }
                    Matcher m = LISTENING.matcher(line);
                    if (line.startsWith("Scorecast") && line.contains(" is listening on ") && m.find()) {
                        port.complete(Integer.parseInt(m.group(1)));
                    }
                    if (line.startsWith("API keys exist") || line.startsWith("No development key")) {
                        key.complete(null);
                    }
                }
            } catch (IOException e) {
                port.completeExceptionally(e); // the process ended, or the log could not be written
            }
            port.completeExceptionally(new IllegalStateException("the server ended before listening; see " + log));
            key.completeExceptionally(new IllegalStateException("the server ended; see " + log));
        });
        try {
            return new ChildServer(process, port.get(120, TimeUnit.SECONDS), key.get(120, TimeUnit.SECONDS));
        } catch (Exception e) {
            process.destroyForcibly();
            List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
            throw new IllegalStateException(
                    "the server did not start (exit " + (process.isAlive() ? "none" : process.exitValue())
                            + ", " + String.join(" ", command).replaceAll("-cp \\S+", "-cp ...") + "):\n"
                            + String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size())),
                    e);
        }
    }

    Api api(String key) {
        return new Api("http://127.0.0.1:" + port, key);
    }

    /** SIGKILL: no shutdown hook runs, nothing is flushed or released. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
