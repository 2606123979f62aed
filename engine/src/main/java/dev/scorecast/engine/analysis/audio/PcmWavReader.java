package dev.scorecast.engine.analysis.audio;

import static java.nio.charset.StandardCharsets.US_ASCII;

import dev.scorecast.engine.error.UnsupportedMedia;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Streams a 16-bit PCM WAV file as float samples in [-1, 1), one array per channel, through a
 * fixed buffer: memory does not grow with the file. Chunks other than {@code fmt } and
 * {@code data} (LIST, fact, ...) are skipped, since ffmpeg and other writers add them.
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
        FileChannel channel;
        try {
            channel = FileChannel.open(wav, StandardOpenOption.READ);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + wav, e);
        }
        try {
            return readHeader(channel, wav);
        } catch (IOException | RuntimeException e) {
            try {
                channel.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof IOException io) {
                throw new UncheckedIOException("cannot read " + wav, io);
            }
            throw (RuntimeException) e;
        }
    }

    private static PcmWavReader readHeader(FileChannel channel, Path wav) throws IOException {
        ByteBuffer riff = readFully(channel, 0, 12);
        if (riff == null || !tag(riff, 0).equals("RIFF") || !tag(riff, 8).equals("WAVE")) {
            throw bad(wav, "not a RIFF/WAVE file");
        }
        long position = 12;
        int format = 0;
        int channels = 0;
        int rate = 0;
        int bits = 0;
        while (true) {
            ByteBuffer chunk = readFully(channel, position, 8);
            if (chunk == null) {
                throw bad(wav, "no data chunk");
            }
            String id = tag(chunk, 0);
            long size = Integer.toUnsignedLong(chunk.getInt(4));
            long body = position + 8;
            if (id.equals("fmt ")) {
                ByteBuffer fmt = readFully(channel, body, 16);
                if (fmt == null) {
                    throw bad(wav, "truncated fmt chunk");
                }
                format = Short.toUnsignedInt(fmt.getShort(0));
                channels = Short.toUnsignedInt(fmt.getShort(2));
                rate = fmt.getInt(4);
                bits = Short.toUnsignedInt(fmt.getShort(14));
                if (format == 0xFFFE && size >= 40) { // WAVE_FORMAT_EXTENSIBLE: the real tag is in the sub-format GUID
                    ByteBuffer ext = readFully(channel, body + 24, 2);
                    format = ext == null ? format : Short.toUnsignedInt(ext.getShort(0));
                }
            } else if (id.equals("data")) {
                if (format != 1 || bits != 16 || channels < 1 || rate < 1) {
                    throw bad(wav, "need 16-bit PCM, found format " + format + ", " + bits + " bits, " + channels
                            + " channels at " + rate + " Hz");
                }
                int frameBytes = channels * Short.BYTES;
                // A writer that died before fixing the header leaves a size past the end; trust the file's length.
                long available = Math.max(0, channel.size() - body);
                long frames = Math.min(size, available) / frameBytes;
                channel.position(body);
                return new PcmWavReader(channel, rate, channels, frames);
            }
            position = body + size + (size & 1); // chunks are padded to an even length
        }
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

    private static ByteBuffer readFully(FileChannel channel, long position, int bytes) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
        while (b.hasRemaining()) {
            if (channel.read(b, position + b.position()) < 0) {
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

    private static UnsupportedMedia bad(Path wav, String why) {
        return new UnsupportedMedia(FIELD, wav.getFileName() + " is not a WAV file this analysis reads: " + why + ".");
    }
}
