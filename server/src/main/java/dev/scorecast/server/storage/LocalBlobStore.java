package dev.scorecast.server.storage;

import dev.scorecast.engine.error.TooLarge;
import dev.scorecast.engine.io.Directories;
import dev.scorecast.engine.io.DiskSync;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import java.util.zip.CheckedOutputStream;

/** Blobs as files under one directory; a key is a relative path made only of safe characters. */
public final class LocalBlobStore implements BlobStore {
    private static final Pattern SAFE_KEY = Pattern.compile("[a-z0-9_][a-z0-9_.-]*(/[a-z0-9_][a-z0-9_.-]*)*");
    private static final String TEMP_SUFFIX = ".partial";
    private static final int BUFFER_BYTES = 1 << 20;
    private static final long PID = ProcessHandle.current().pid();
    private static final Pattern TEMP_NAME = Pattern.compile(".*\\.(\\d+)-[0-9a-f-]{36}" + Pattern.quote(TEMP_SUFFIX));

    private final Path root;
    private final Scratch scratch;

    /** A store whose scratch space is {@code tmp/scratch} beside {@code root}. */
    public LocalBlobStore(Path root) {
        this(
                root,
                Scratch.under(
                        root.toAbsolutePath().normalize().resolveSibling("tmp").resolve("scratch")));
    }

    public LocalBlobStore(Path root, Scratch scratch) {
        this.root = root.toAbsolutePath().normalize();
        this.scratch = scratch;
        try {
            Files.createDirectories(this.root);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the file store at " + this.root, e);
        }
    }

    @Override
    public StoredBlob write(String key, InputStream content, long maxBytes, String sizeField, boolean withSha256) {
        Path target = resolve(key);
        // The writer's process id in the name: recovery removes only the leftovers of processes that are gone.
        Path temp = target.resolveSibling(target.getFileName() + "." + PID + "-" + UUID.randomUUID() + TEMP_SUFFIX);
        try {
            Files.createDirectories(target.getParent());
            MessageDigest digest = withSha256 ? sha256() : null;
            var crc = new CRC32C();
            long size = 0;
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                    OutputStream file = Channels.newOutputStream(channel);
                    OutputStream out = new CheckedOutputStream(
                            digest == null ? file : new DigestOutputStream(file, digest), crc)) {
                byte[] buffer = new byte[BUFFER_BYTES];
                int read;
                while ((read = content.read(buffer)) != -1) {
                    size += read;
                    if (size > maxBytes) {
                        throw new TooLarge(
                                sizeField,
                                "The " + sizeField + " is larger than the limit of " + maxBytes
                                        + " bytes; send it in smaller pieces.");
                    }
                    out.write(buffer, 0, read);
                }
                out.flush();
                channel.force(true);
            }
            publish(temp, target);
            return new StoredBlob(
                    key,
                    size,
                    Checksums.hex(crc),
                    digest == null ? null : HexFormat.of().formatHex(digest.digest()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            deleteQuietly(temp);
        }
    }

    @Override
    public void moveIn(String key, Path file) {
        Path target = resolve(key);
        try {
            Files.createDirectories(target.getParent());
            try {
                DiskSync.file(file);
                publish(file, target);
                return;
            } catch (AtomicMoveNotSupportedException otherFileSystem) {
                // fall through to copying, which publishes atomically through a temporary name
            }
            try (InputStream in = Files.newInputStream(file)) {
                write(key, in, Long.MAX_VALUE, "file", false);
            }
            Files.delete(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Renames a written and synced file to its key, then syncs the directory: after a power cut the
     * key holds the whole file or nothing, never a name pointing at lost or partial data.
     */
    private static void publish(Path synced, Path target) throws IOException {
        Files.move(synced, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        try (FileChannel directory = FileChannel.open(target.getParent(), StandardOpenOption.READ)) {
            directory.force(true);
        }
    }

    @Override
    public InputStream open(String key) {
        try {
            return Files.newInputStream(resolve(key));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public long size(String key) {
        try {
            return Files.size(resolve(key));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The file itself: nothing to copy, nothing to remove. */
    @Override
    public Staged stage(String key) {
        Path path = resolve(key);
        if (!Files.isRegularFile(path)) {
            throw new UncheckedIOException(new NoSuchFileException(key));
        }
        return new Staged(path, false);
    }

    @Override
    public Path scratchDirectory() {
        return scratch.newDirectory();
    }

    @Override
    public void checkReachable() {
        if (!Files.isDirectory(root) || !Files.isWritable(root)) {
            throw new UncheckedIOException(new IOException("the file store " + root + " is not a writable directory"));
        }
    }

    @Override
    public boolean exists(String key) {
        return Files.isRegularFile(resolve(key));
    }

    @Override
    public void delete(String key) {
        deleteQuietly(resolve(key));
    }

    @Override
    public void deleteTree(String prefix) {
        Directories.deleteTree(resolve(prefix));
    }

    @Override
    public void removeLeftovers() {
        removeLeftovers(Instant.MAX);
    }

    /** A writer appends as bytes arrive, so a live write's file is touched all along; an old one whose process is gone is a crash's. */
    @Override
    public void removeLeftovers(Instant untouchedSince) {
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(path -> path.getFileName().toString().endsWith(TEMP_SUFFIX)
                            && !writerAlive(path.getFileName().toString())
                            && modifiedBefore(path, untouchedSince))
                    .forEach(LocalBlobStore::deleteQuietly);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void list(String prefix, BiConsumer<String, Instant> each) {
        Path dir = resolve(prefix);
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                if (file.getFileName().toString().endsWith(TEMP_SUFFIX)) {
                    continue;
                }
                Instant modified;
                try {
                    modified = Files.getLastModifiedTime(file).toInstant();
                } catch (NoSuchFileException gone) {
                    continue; // deleted while listed
                }
                each.accept(root.relativize(file).toString().replace(File.separatorChar, '/'), modified);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (UncheckedIOException e) {
            if (!(e.getCause() instanceof NoSuchFileException)) {
                throw e;
            }
            // a directory removed while walked (its upload expired): what was listed stands
        }
    }

    private static boolean modifiedBefore(Path path, Instant untouchedSince) {
        try {
            return Files.getLastModifiedTime(path).toInstant().isBefore(untouchedSince);
        } catch (IOException gone) {
            return false;
        }
    }

    /** Whether the process that named this temporary file still runs (another node on the same directory). */
    private static boolean writerAlive(String name) {
        var m = TEMP_NAME.matcher(name);
        if (!m.matches()) {
            return false;
        }
        long pid = Long.parseLong(m.group(1));
        return pid != PID && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    private Path resolve(String key) {
        if (key == null || !SAFE_KEY.matcher(key).matches() || key.contains("..")) {
            throw new IllegalArgumentException("unsafe blob key: " + key);
        }
        return root.resolve(key);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // A leftover temp file is removed at the next start.
        }
    }
}
