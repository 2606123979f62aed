package dev.scorecast.server.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A real S3 server for tests: S3Proxy (Maven Central, org.gaul:s3proxy) on its filesystem backend,
 * as its own process on a free port. {@link #stop()} and {@link #start()} make an outage; the
 * objects stay on disk across it.
 */
public final class S3Proxy implements AutoCloseable {
    public static final String IDENTITY = "scorecast-test";
    public static final String CREDENTIAL = "scorecast-test-secret";
    private static final Path JAR = Path.of("target/s3proxy/s3proxy.jar");

    private final Path dir;
    private final int port;
    private Process process;

    private S3Proxy(Path dir, int port) {
        this.dir = dir;
        this.port = port;
    }

    /** Starts S3Proxy over {@code dir} (objects in {@code dir/objects}) with one empty bucket, {@code bucket}. */
    public static S3Proxy start(Path dir, String bucket) {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException(
                    JAR.toAbsolutePath() + " is missing: Maven's process-test-resources phase copies it");
        }
        var proxy = new S3Proxy(dir, freePort());
        try {
            Files.createDirectories(dir.resolve("objects").resolve(bucket));
            Files.writeString(
                    dir.resolve("s3proxy.conf"),
                    String.join(
                                    "\n",
                                    "s3proxy.endpoint=http://127.0.0.1:" + proxy.port,
                                    "s3proxy.authorization=aws-v2-or-v4",
                                    "s3proxy.identity=" + IDENTITY,
                                    "s3proxy.credential=" + CREDENTIAL,
                                    "jclouds.provider=filesystem",
                                    "jclouds.filesystem.basedir="
                                            + dir.resolve("objects").toAbsolutePath())
                            + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        proxy.start();
        return proxy;
    }

    public String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    /** The settings that point a node at this store. */
    public Map<String, String> env(String bucket, String prefix) {
        return Map.of(
                "SCORECAST_STORAGE_URL",
                "s3://" + bucket + "/" + prefix,
                "SCORECAST_S3_ENDPOINT",
                endpoint(),
                "AWS_ACCESS_KEY_ID",
                IDENTITY,
                "AWS_SECRET_ACCESS_KEY",
                CREDENTIAL,
                "AWS_REGION",
                "us-east-1");
    }

    /** Where the filesystem backend keeps an object. */
    public Path objectFile(String bucket, String key) {
        return dir.resolve("objects").resolve(bucket).resolve(key);
    }

    public synchronized void start() {
        try {
            String java =
                    Path.of(System.getProperty("java.home"), "bin", "java").toString();
            process = new ProcessBuilder(List.of(
                            java,
                            "-Xmx256m",
                            "-XX:TieredStopAtLevel=1",
                            "-jar",
                            JAR.toAbsolutePath().toString(),
                            "--properties",
                            dir.resolve("s3proxy.conf").toString()))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(
                            dir.resolve("s3proxy.log").toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("S3Proxy exited; see " + dir.resolve("s3proxy.log"));
            }
            try (var socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                sleep(100);
            }
        }
        throw new IllegalStateException(
                "S3Proxy did not listen on " + port + " within 60 s; see " + dir.resolve("s3proxy.log"));
    }

    /** Kills the server at once (an outage); {@link #start()} brings it back on the same port and files. */
    public synchronized void stop() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process = null;
        }
    }

    @Override
    public void close() {
        stop();
    }

    private static int freePort() {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
