package dev.scorecast.server.storage;

import dev.scorecast.engine.error.TooLarge;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.UUID;
import java.util.zip.CRC32C;
import java.util.zip.CheckedOutputStream;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Blobs as files under one directory; a key is a relative path made only of safe characters. */
public final class LocalBlobStore implements BlobStore {
    private static final Pattern SAFE_KEY = Pattern.compile("[a-z0-9_][a-z0-9_.-]*(/[a-z0-9_][a-z0-9_.-]*)*");
    private static final String TEMP_SUFFIX = ".partial";
    private static final int BUFFER_BYTES = 1 << 20;

    private final Path root;

    public LocalBlobStore(Path root) {
        this.root = root.toAbsolutePath().normalize();
        try {
            Files.createDirectories(this.root);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the file store at " + this.root, e);
        }
    }

    @Override
    public StoredBlob write(String key, InputStream content, long maxBytes, String sizeField, boolean withSha256) {
        Path target = resolve(key);
        Path temp = target.resolveSibling(target.getFileName() + "." + UUID.randomUUID() + TEMP_SUFFIX);
        try {
            Files.createDirectories(target.getParent());
            MessageDigest digest = withSha256 ? sha256() : null;
            var crc = new CRC32C();
            long size = 0;
            try (OutputStream file = Files.newOutputStream(temp);
                 OutputStream out = new CheckedOutputStream(digest == null ? file : new DigestOutputStream(file, digest), crc)) {
                byte[] buffer = new byte[BUFFER_BYTES];
                int read;
                while ((read = content.read(buffer)) != -1) {
                    size += read;
                    if (size > maxBytes) {
                        throw new TooLarge(sizeField, "The " + sizeField + " is larger than the limit of "
                                + maxBytes + " bytes; send it in smaller pieces.");
                    }
                    out.write(buffer, 0, read);
                }
            }
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return new StoredBlob(key, size, Checksums.hex(crc), digest == null ? null : HexFormat.of().formatHex(digest.digest()));
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
                Files.move(file, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
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

    @Override
    public InputStream open(String key) {
        try {
            return Files.newInputStream(resolve(key));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Path localPath(String key) {
        Path path = resolve(key);
        try {
            Files.createDirectories(path.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return path;
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
        Path dir = resolve(prefix);
        if (!Files.isDirectory(dir)) {
            return;
        }
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path visited, IOException failure) throws IOException {
                    Files.deleteIfExists(visited);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (NoSuchFileException ignored) {
            // Already gone: another cleanup got there first.
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void removeLeftovers() {
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(path -> path.getFileName().toString().endsWith(TEMP_SUFFIX)).forEach(LocalBlobStore::deleteQuietly);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
