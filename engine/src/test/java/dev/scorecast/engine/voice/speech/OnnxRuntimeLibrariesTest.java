package dev.scorecast.engine.voice.speech;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18: every JVM start used to leave ONNX Runtime's 28 MB of libraries behind in a new
 * {@code onnxruntime-java*} directory. Two fresh JVMs, each with a temp directory of our own, load
 * the speech model; afterwards the temp directory holds only the one lasting copy, made by the first
 * and reused (not rewritten) by the second.
 */
class OnnxRuntimeLibrariesTest {
    @TempDir
    Path tmp;

    @Test
    void freshJvmsShareOneCopyOfTheLibrariesAndLeaveNothingElse() throws Exception {
        loadInAFreshJvm();
        Map<Path, FileTime> first = files();
        assertTrue(
                first.keySet().stream()
                        .anyMatch(p -> p.getFileName().toString().equals(System.mapLibraryName("onnxruntime"))),
                "the libraries are in the lasting directory: " + first.keySet());
        loadInAFreshJvm();
        Map<Path, FileTime> second = files();
        assertEquals(first, second, "the second JVM reused the copy and left nothing of its own");
        try (Stream<Path> top = Files.list(tmp)) {
            List<String> names = top.map(p -> p.getFileName().toString()).toList();
            assertEquals(1, names.size(), "only the lasting directory: " + names);
            assertTrue(names.getFirst().startsWith("scorecast-onnxruntime-"), names.getFirst());
        }
    }

    @Test
    void emptyDirectoriesThatKilledJvmsLeftAreRemovedAndNothingElse() throws Exception {
        FileTime hourAgo = FileTime.from(Instant.now().minus(Duration.ofHours(1)));
        Path staleEmpty = Files.createDirectory(tmp.resolve("onnxruntime-java1234"));
        Path staleFull = Files.createDirectory(tmp.resolve("onnxruntime-java5678"));
        Files.writeString(staleFull.resolve("keep"), "x");
        Path freshEmpty = Files.createDirectory(tmp.resolve("onnxruntime-java9999")); // a JVM starting right now
        Path other = Files.createDirectory(tmp.resolve("something-else"));
        for (Path dir : List.of(staleEmpty, staleFull, other)) {
            Files.setLastModifiedTime(dir, hourAgo);
        }
        loadInAFreshJvm();
        assertTrue(Files.notExists(staleEmpty), "an old empty directory is removed");
        assertTrue(Files.exists(staleFull.resolve("keep")), "a directory with something in it is kept");
        assertTrue(Files.exists(freshEmpty), "a new one may belong to a JVM starting up");
        assertTrue(Files.exists(other), "only ONNX Runtime's directories are looked at");
    }

    private void loadInAFreshJvm() throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(
                        java.toString(),
                        "-Djava.io.tmpdir=" + tmp,
                        "-cp",
                        System.getProperty("java.class.path"),
                        "-D" + SileroSpeechDetector.MODEL_PROPERTY + "=" + SileroSpeechDetector.configuredModel(),
                        Load.class.getName())
                .redirectErrorStream(true)
                .start();
        String output = new String(child.getInputStream().readAllBytes());
        assertTrue(child.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, child.exitValue(), output);
    }

    private Map<Path, FileTime> files() throws IOException {
        try (Stream<Path> all = Files.walk(tmp)) {
            return all.filter(Files::isRegularFile).collect(Collectors.toMap(p -> p, p -> {
                try {
                    return Files.getLastModifiedTime(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }));
        }
    }

    /** The child: loads the model, as the server does at start-up, and exits normally. */
    public static final class Load {
        public static void main(String[] args) {
            try (SileroSpeechDetector detector = SileroSpeechDetector.load()) {
                System.out.println("loaded " + detector);
            }
        }
    }
}
