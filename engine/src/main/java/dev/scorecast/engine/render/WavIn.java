package dev.scorecast.engine.render;

import static java.nio.charset.StandardCharsets.US_ASCII;

import dev.scorecast.engine.error.UnsupportedMedia;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Streams a WAV file (16-, 24- or 32-bit PCM or 32-bit float, mono or stereo) as planar stereo
 * float blocks through a fixed buffer; mono is copied to both sides. Past the end of the data it
 * reads silence, so sources of different lengths can be summed block by block.
 */
final class WavIn implements AutoCloseable {

    private final FileChannel channel;
    private final int rate;
    private final int channels;
    private final int bits;
    private final boolean isFloat;
    private final long frames;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
    private long left;

    private WavIn(FileChannel channel, int rate, int channels, int bits, boolean isFloat, long frames) {
        this.channel = channel;
        this.rate = rate;
        this.channels = channels;
        this.bits = bits;
        this.isFloat = isFloat;
        this.frames = frames;
        this.left = frames;
        buffer.limit(0);
    }

    static WavIn open(Path wav, String field) {
        FileChannel ch;
        try {
            ch = FileChannel.open(wav, StandardOpenOption.READ);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + wav, e);
        }
        try {
            return header(ch, wav, field);
        } catch (IOException | RuntimeException e) {
            try {
                ch.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof IOException io) {
                throw new UncheckedIOException("cannot read " + wav, io);
            }
            throw (RuntimeException) e;
        }
    }

    private static WavIn header(FileChannel ch, Path wav, String field) throws IOException {
        ByteBuffer riff = read(ch, 0, 12);
        if (riff == null || !tag(riff, 0).equals("RIFF") || !tag(riff, 8).equals("WAVE")) {
            throw bad(wav, field, "not a RIFF/WAVE file");
        }
        long pos = 12;
        int format = 0;
        int channels = 0;
        int rate = 0;
        int bits = 0;
        while (true) {
            ByteBuffer chunk = read(ch, pos, 8);
            if (chunk == null) {
                throw bad(wav, field, "no data chunk");
            }
            String id = tag(chunk, 0);
            long size = Integer.toUnsignedLong(chunk.getInt(4));
            long body = pos + 8;
            if (id.equals("fmt ")) {
                ByteBuffer fmt = read(ch, body, 16);
                if (fmt == null) {
                    throw bad(wav, field, "truncated fmt chunk");
                }
                format = Short.toUnsignedInt(fmt.getShort(0));
                channels = Short.toUnsignedInt(fmt.getShort(2));
                rate = fmt.getInt(4);
                bits = Short.toUnsignedInt(fmt.getShort(14));
                if (format == 0xFFFE && size >= 40) {
                    ByteBuffer ext = read(ch, body + 24, 2);
                    format = ext == null ? format : Short.toUnsignedInt(ext.getShort(0));
                }
            } else if (id.equals("data")) {
                boolean pcm = format == 1 && (bits == 16 || bits == 24 || bits == 32);
                boolean flt = format == 3 && bits == 32;
                if (!(pcm || flt) || channels < 1 || channels > 2 || rate < 1) {
                    throw bad(wav, field, "need 16/24/32-bit PCM or 32-bit float, mono or stereo; found format " + format + ", "
                            + bits + " bits, " + channels + " channels");
                }
                int frameBytes = channels * bits / 8;
                long available = Math.max(0, ch.size() - body);
                ch.position(body);
                return new WavIn(ch, rate, channels, bits, flt, Math.min(size, available) / frameBytes);
            }
            pos = body + size + (size & 1);
        }
    }

    int rate() {
        return rate;
    }

    long frames() {
        return frames;
    }

    /** Fills {@code out[0..1][0..n)}; frames past the end of the file are zeros. */
    void read(float[][] out, int n) {
        int wanted = (int) Math.min(n, left);
        int sampleBytes = bits / 8;
        int frameBytes = channels * sampleBytes;
        int done = 0;
        while (done < wanted) {
            if (buffer.remaining() < frameBytes && !refill(frameBytes)) {
                break;
            }
            int m = Math.min(wanted - done, buffer.remaining() / frameBytes);
            for (int i = done; i < done + m; i++) {
                for (int c = 0; c < channels; c++) {
                    out[c][i] = sample(sampleBytes);
                }
                if (channels == 1) {
                    out[1][i] = out[0][i];
                }
            }
            done += m;
        }
        left -= done;
        if (done < n) {
            Arrays.fill(out[0], done, n, 0f);
            Arrays.fill(out[1], done, n, 0f);
        }
    }

    private float sample(int bytes) {
        if (isFloat) {
            return buffer.getFloat();
        }
        return switch (bytes) {
            case 2 -> buffer.getShort() * (1f / 32768f);
            case 3 -> {
                int lo = buffer.get() & 0xFF;
                int mid = buffer.get() & 0xFF;
                int hi = buffer.get(); // sign-extends
                yield ((hi << 16) | (mid << 8) | lo) * (1f / 8388608f);
            }
            default -> buffer.getInt() * (1f / 2147483648f);
        };
    }

    private boolean refill(int frameBytes) {
        buffer.compact();
        try {
            int n = channel.read(buffer);
            buffer.flip();
            return n > 0 || buffer.remaining() >= frameBytes;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read a WAV file", e);
        }
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close a WAV file", e);
        }
    }

    private static ByteBuffer read(FileChannel ch, long at, int bytes) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
        while (b.hasRemaining()) {
            if (ch.read(b, at + b.position()) < 0) {
                return null;
            }
        }
        return b.flip();
    }

    private static String tag(ByteBuffer b, int at) {
        byte[] four = new byte[4];
        b.get(at, four);
        return new String(four, US_ASCII);
    }

    private static UnsupportedMedia bad(Path wav, String field, String why) {
        return new UnsupportedMedia(field, wav.getFileName() + " is not a WAV file the mixer reads: " + why + ".");
    }
}
