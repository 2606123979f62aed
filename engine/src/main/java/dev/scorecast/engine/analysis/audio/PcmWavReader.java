package dev.scorecast.engine.analysis.audio;

import dev.scorecast.engine.error.UnsupportedMedia;
import dev.scorecast.engine.io.WavFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Streams a 16-bit PCM WAV file as float samples in [-1, 1), one array per channel, through a
 * fixed buffer: memory does not grow with the file. The header is read by {@link WavFormat}.
 */
public final class PcmWavReader implements AutoCloseable {

    private static final int BUFFER_BYTES = 1 << 16;
    private static final String FIELD = "wav";

    private final FileChannel channel;
    private final int sampleRateHz;
    private final int channels;
    private final long frames;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private long framesLeft;
    private short[] shorts = new short[0];

    private PcmWavReader(FileChannel channel, int sampleRateHz, int channels, long frames) {
        this.channel = channel;
        this.sampleRateHz = sampleRateHz;
        this.channels = channels;
        this.frames = frames;
        this.framesLeft = frames;
        buffer.limit(0);
    }

    /** @throws UnsupportedMedia when the file is not 16-bit PCM WAV */
    public static PcmWavReader open(Path wav) {
        WavFormat.Opened opened = WavFormat.open(wav, FIELD, "this analysis");
        WavFormat f = opened.format();
        if (f.formatTag() != WavFormat.PCM || f.bits() != 16 || f.channels() < 1 || f.rateHz() < 1) {
            throw WavFormat.refuse(opened, wav, FIELD, "this analysis", "need 16-bit PCM, found " + f.describe());
        }
        return new PcmWavReader(opened.channel(), f.rateHz(), f.channels(), f.frames());
    }

    public int sampleRateHz() {
        return sampleRateHz;
    }

    public int channels() {
        return channels;
    }

    /** Sample frames in the file (one frame = one sample per channel). */
    public long frames() {
        return frames;
    }

    /**
     * Reads up to {@code maxFrames} frames into {@code out[channel][0..]}.
     *
     * @return frames read; 0 at the end of the data
     */
    public int read(float[][] out, int maxFrames) {
        int wanted = (int) Math.min(maxFrames, framesLeft);
        int frameBytes = channels * Short.BYTES;
        int done = 0;
        while (done < wanted) {
            if (buffer.remaining() < frameBytes && !refill()) {
                break;
            }
            int n = Math.min(wanted - done, buffer.remaining() / frameBytes);
            if (shorts.length < n * channels) {
                shorts = new short[n * channels];
            }
            buffer.asShortBuffer().get(shorts, 0, n * channels);
            buffer.position(buffer.position() + n * frameBytes);
            for (int c = 0; c < channels; c++) {
                float[] channel = out[c];
                for (int i = 0, j = c; i < n; i++, j += channels) {
                    channel[done + i] = shorts[j] * (1f / 32768f);
                }
            }
            done += n;
        }
        framesLeft -= done;
        return done;
    }

    private boolean refill() {
        buffer.compact();
        try {
            int n = channel.read(buffer);
            buffer.flip();
            return n > 0 || buffer.remaining() >= channels * Short.BYTES;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the WAV file", e);
        }
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the WAV file", e);
        }
    }
}
