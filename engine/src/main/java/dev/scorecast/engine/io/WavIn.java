package dev.scorecast.engine.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Streams a WAV file (16-, 24- or 32-bit PCM or 32-bit float, mono or stereo) as planar stereo
 * float blocks through a fixed buffer; mono is copied to both sides. Past the end of the data it
 * reads silence, so sources of different lengths can be summed block by block.
 */
public final class WavIn implements AutoCloseable {

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

    /** Opens {@code wav} for {@code reader} (named in errors, as is the request's {@code field}). */
    public static WavIn open(Path wav, String field, String reader) {
        WavFormat.Opened opened = WavFormat.open(wav, field, reader);
        WavFormat f = opened.format();
        boolean pcm = f.formatTag() == WavFormat.PCM && (f.bits() == 16 || f.bits() == 24 || f.bits() == 32);
        boolean flt = f.formatTag() == WavFormat.IEEE_FLOAT && f.bits() == 32;
        if (!(pcm || flt) || f.channels() < 1 || f.channels() > 2 || f.rateHz() < 1) {
            throw WavFormat.refuse(opened, wav, field, reader, "need 16/24/32-bit PCM or 32-bit float, mono or stereo; found "
                    + f.describe());
        }
        return new WavIn(opened.channel(), f.rateHz(), f.channels(), f.bits(), flt, f.frames());
    }

    public int rate() {
        return rate;
    }

    public long frames() {
        return frames;
    }

    /** Fills {@code out[0..1][0..n)}; frames past the end of the file are zeros. */
    public void read(float[][] out, int n) {
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
}
