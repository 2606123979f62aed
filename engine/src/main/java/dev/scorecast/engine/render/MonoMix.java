package dev.scorecast.engine.render;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A mono track of a fixed length built on disk, clip by clip: each clip (a spoken line, a sung
 * phrase) is added into the file where it starts and can be let go at once, so building a track
 * holds one clip in memory however many there are. (The voices once kept every clip until the track
 * was written: a plan of many long lines held gigabytes, issue 28.) Samples past the track's end are
 * dropped. Removed when closed.
 */
public final class MonoMix implements AutoCloseable {
    private static final int CHUNK = 1 << 16;

    private final Path path;
    private final FileChannel file;
    private final long frames;
    private final ByteBuffer bytes = ByteBuffer.allocate(CHUNK * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);

    /** A silent track of {@code frames} samples in {@code path} (a new file). */
    public MonoMix(Path path, long frames) {
        this.path = path;
        this.frames = Math.max(0, frames);
        try {
            this.file = FileChannel.open(
                    path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
            if (this.frames > 0) {
                file.write(ByteBuffer.allocate(1), this.frames * Float.BYTES - 1); // sized; the holes read as zeros
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public long frames() {
        return frames;
    }

    /** Adds {@code samples} into the track from sample {@code at}. */
    public void add(long at, float[] samples) {
        long from = Math.max(0, at);
        long to = Math.min(frames, at + samples.length);
        try {
            for (long pos = from; pos < to; pos += CHUNK) {
                int n = (int) Math.min(CHUNK, to - pos);
                bytes.clear().limit(n * Float.BYTES);
                while (bytes.hasRemaining() && file.read(bytes, pos * Float.BYTES + bytes.position()) >= 0) {
                    // a sized file: read until the chunk is whole
                }
                for (int i = 0; i < n; i++) {
                    int offset = i * Float.BYTES;
                    bytes.putFloat(offset, bytes.getFloat(offset) + samples[(int) (pos + i - at)]);
                }
                bytes.position(0).limit(n * Float.BYTES);
                while (bytes.hasRemaining()) {
                    file.write(bytes, pos * Float.BYTES + bytes.position());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads {@code n} samples from {@code pos} into {@code into}. */
    void read(long pos, float[] into, int n) {
        ByteBuffer block = ByteBuffer.allocate(n * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        try {
            while (block.hasRemaining()) {
                if (file.read(block, pos * Float.BYTES + block.position()) < 0) {
                    break;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        block.flip();
        for (int i = 0; i < n; i++) {
            into[i] = block.remaining() >= Float.BYTES ? block.getFloat() : 0f;
        }
    }

    @Override
    public void close() {
        try {
            file.close();
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
