package dev.scorecast.engine.voice.speech;

import ai.onnxruntime.OrtEnvironment;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * Puts ONNX Runtime's native libraries in one lasting directory and points ONNX Runtime at it
 * ({@code onnxruntime.native.path}) before its first use. Left alone, ONNX Runtime copies its
 * 28 MB of libraries into a new {@code onnxruntime-java*} directory in the system temp directory on
 * every JVM start and never removes the directory (it asks for the directory to be deleted at
 * exit before the files in it, which fails), so every start of the server, the CLI or a test run
 * left one behind. Here they are copied once per ONNX Runtime version into
 * {@code scorecast-onnxruntime-VERSION-PLATFORM} in the temp directory, reused by every later JVM;
 * the directory ONNX Runtime still makes is then left empty and it deletes it itself.
 *
 * <p>A JVM killed before it exits (SIGKILL, a crash) cannot delete its empty directory, so each start
 * also removes empty {@code onnxruntime-java*} directories older than {@link #STALE_AFTER}; it
 * never removes one with anything in it.
 *
 * <p>Several JVMs may start at once: each writes its copy under a name of its own and renames it
 * into place, so a library is never seen half-written. When anything here fails, ONNX Runtime is
 * left to its own way, which works, only untidily.
 */
final class OnnxRuntimeLibraries {
    static final String NATIVE_PATH_PROPERTY = "onnxruntime.native.path";
    private static final List<String> LIBRARIES = List.of("onnxruntime", "onnxruntime4j_jni");
    /** An empty ONNX Runtime directory this old belongs to no JVM still starting up. */
    static final Duration STALE_AFTER = Duration.ofMinutes(10);

    private static boolean prepared;

    private OnnxRuntimeLibraries() {}

    /** Prepares the directory and sets the property, once per JVM, unless the property is already set. */
    static synchronized void prepare() {
        if (prepared) {
            return;
        }
        prepared = true;
        if (System.getProperty(NATIVE_PATH_PROPERTY) != null) {
            return;
        }
        String platform = platform();
        if (platform == null) {
            return;
        }
        String version = OrtEnvironment.class.getPackage().getImplementationVersion();
        Path dir = Path.of(
                System.getProperty("java.io.tmpdir"),
                "scorecast-onnxruntime-" + (version == null ? "unknown" : version) + "-" + platform);
        try {
            Files.createDirectories(dir);
            for (String library : LIBRARIES) {
                String name = System.mapLibraryName(library);
                URL resource =
                        OnnxRuntimeLibraries.class.getResource("/ai/onnxruntime/native/" + platform + "/" + name);
                if (resource == null) {
                    return; // not a platform this ONNX Runtime jar carries: let it report that itself
                }
                place(resource, dir.resolve(name));
            }
            System.setProperty(NATIVE_PATH_PROPERTY, dir.toString());
            removeStaleEmptyDirectories(dir.getParent());
        } catch (IOException | RuntimeException e) {
            // ONNX Runtime's own extraction still works; it only leaves its directory behind.
        }
    }

    /** Removes ONNX Runtime's own empty directories that killed JVMs left in {@code tmp}. */
    static void removeStaleEmptyDirectories(Path tmp) throws IOException {
        // Compared with the directories' modification times, which the file system writes from the host's clock.
        Instant before = Instant.now().minus(STALE_AFTER);
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tmp, "onnxruntime-java*")) {
            for (Path dir : dirs) {
                try {
                    if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
                            && Files.getLastModifiedTime(dir).toInstant().isBefore(before)) {
                        Files.delete(dir); // refused for a directory that is not empty, which is kept
                    }
                } catch (IOException stillInUseOrNotOurs) {
                    // not empty, another user's, or gone meanwhile: leave it
                }
            }
        }
    }

    private static void place(URL resource, Path target) throws IOException {
        URLConnection connection = resource.openConnection();
        long size = connection.getContentLengthLong();
        if (size >= 0 && Files.isRegularFile(target) && Files.size(target) == size) {
            return;
        }
        Path partial =
                Files.createTempFile(target.getParent(), target.getFileName().toString(), ".partial");
        try (InputStream in = connection.getInputStream()) {
            Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    /** ONNX Runtime's name for this operating system and processor, or null for one it has no libraries for. */
    static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        String o = os.contains("linux") ? "linux" : os.contains("mac") ? "osx" : os.contains("win") ? "win" : null;
        String a = arch.equals("amd64") || arch.equals("x86_64") ? "x64" : arch.equals("aarch64") ? "aarch64" : null;
        return o == null || a == null ? null : o + "-" + a;
    }
}
