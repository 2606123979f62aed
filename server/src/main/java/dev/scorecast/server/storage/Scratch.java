package dev.scorecast.server.storage;

import dev.scorecast.engine.io.Directories;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * This process's local scratch space: {@code tmp/scratch/<pid>} in the data directory, where a
 * worker stages the blobs a tool needs as files and makes outputs before they move into the store.
 * Several processes may share a data directory, so each keeps to its own directory, and at start
 * removes only the directories of processes that no longer run.
 */
public final class Scratch {
    private final Path dir;

    private Scratch(Path dir) {
        this.dir = dir;
    }

    /** Creates this process's directory under {@code root} and removes those of dead processes. */
    public static Scratch under(Path root) {
        try {
            Files.createDirectories(root);
            try (Stream<Path> others = Files.list(root)) {
                for (Path other : others.toList()) {
                    String name = other.getFileName().toString();
                    if (name.matches("\\d+")
                            && ProcessHandle.of(Long.parseLong(name))
                                    .map(ProcessHandle::isAlive)
                                    .orElse(false)) {
                        continue;
                    }
                    deleteTree(other);
                }
            }
            Path own = root.resolve(Long.toString(ProcessHandle.current().pid()));
            deleteTree(own);
            Files.createDirectories(own);
            return new Scratch(own);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the scratch directory under " + root, e);
        }
    }

    public Path root() {
        return dir;
    }

    /** A new empty directory of its own. */
    public Path newDirectory() {
        try {
            return Files.createTempDirectory(dir, "work");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A new empty file path (not created) in a directory of its own, with {@code suffix}. */
    public Path newFile(String suffix) {
        try {
            return Files.createTempFile(dir, "blob", suffix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteTree(Path path) {
        Directories.deleteTree(path);
    }
}
