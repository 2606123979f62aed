package dev.scorecast.engine.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes what the operating system still holds of a finished file to the disk now. A caller that
 * knows a large file will be synced later (a blob store publishing an output syncs it first) can
 * do it here, beside other work, so that the later sync finds nothing left to wait for.
 */
public final class DiskSync {
    private DiskSync() {}

    /** Syncs {@code file}'s content and size to the disk. */
    public static void file(Path file) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot sync " + file, e);
        }
    }
}
