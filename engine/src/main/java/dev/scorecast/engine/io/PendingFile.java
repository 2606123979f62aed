package dev.scorecast.engine.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * A file being written under a hidden temporary name beside its target, with room kept at the
 * start for a header whose numbers are known only at the end. {@link #commit} writes the header,
 * syncs and renames it into place, so the target name only ever holds a complete file; closing
 * without committing deletes it.
 */
public final class PendingFile implements AutoCloseable {
    private final Path target;
    private final Path temp;
    private final FileChannel channel;
    private final boolean durable;
    private boolean committed;

    private PendingFile(Path target, Path temp, FileChannel channel, boolean durable) {
        this.target = target;
        this.temp = temp;
        this.channel = channel;
        this.durable = durable;
    }

    /** Starts {@code target} (its folder created if missing), writing from byte {@code headerBytes}. */
    public static PendingFile create(Path target, int headerBytes) {
        return create(target, headerBytes, true);
    }

    /**
     * As {@link #create(Path, int)}, for a file a crash may lose: work files of one job, which a
     * job run again writes again. {@link #commit} renames it into place without syncing it first
     * (a sync of a minute's float stem waits about 10 ms for the disk).
     */
    public static PendingFile createScratch(Path target, int headerBytes) {
        return create(target, headerBytes, false);
    }

    private static PendingFile create(Path target, int headerBytes, boolean durable) {
        Path absolute = target.toAbsolutePath();
        Path temp = null;
        try {
            Files.createDirectories(absolute.getParent());
            temp = Files.createTempFile(absolute.getParent(), "." + absolute.getFileName() + ".", ".part");
            FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE);
            channel.position(headerBytes);
            return new PendingFile(absolute, temp, channel, durable);
        } catch (IOException e) {
            deleteQuietly(temp);
            throw new UncheckedIOException("cannot create a temporary file beside " + absolute, e);
        }
    }

    /** Appends what remains of {@code bytes}. */
    public void write(ByteBuffer bytes) {
        try {
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + temp, e);
        }
    }

    /** Puts {@code header} at the start and the file at its target name, replacing any file there. */
    public void commit(ByteBuffer header) {
        try {
            channel.write(header, 0);
            // Without the sync, a power cut after the rename could leave the name pointing at a hole.
            if (durable) {
                channel.force(true);
            }
            channel.close();
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            committed = true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target, e);
        }
    }

    @Override
    public void close() {
        if (!committed) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // The file is being thrown away.
            }
            deleteQuietly(temp);
        }
    }

    private static void deleteQuietly(Path path) {
        if (path != null) {
            try {
                Files.deleteIfExists(path);
            } catch (IOException ignored) {
                // Best effort: a leftover ".part" file is harmless and hidden.
            }
        }
    }
}
