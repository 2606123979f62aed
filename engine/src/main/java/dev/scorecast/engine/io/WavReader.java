package dev.scorecast.engine.io;

import dev.scorecast.engine.error.UnsupportedMedia;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Streams a WAV file, mono or stereo, 16-bit PCM or 32-bit float ({@link WavEncoding}), as planar
 * float blocks through a fixed buffer: memory does not grow with the file. Chunks other than
 * {@code fmt } and {@code data} (LIST, fact, ...) are skipped, since FFmpeg and other writers add
 * them; WAVE_FORMAT_EXTENSIBLE is read through to its real format tag; a data size past the end of
 * the file (a writer that died before fixing its header) is cut to what the file holds.
 */
public final class WavReader implements StereoSource {
    private static final int EXTENSIBLE = 0xFFFE;
    private static final int BUFFER_BYTES = 1 << 16;

    private final FileChannel channel;
    private final WavEncoding encoding;
    private final int rateHz;
    private final int channels;
    private final long frames;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private float[] interleaved = new float[0];
    private long left;

    private WavReader(FileChannel channel, WavEncoding encoding, int rateHz, int channels, long frames) {
        this.channel = channel;
        this.encoding = encoding;
        this.rateHz = rateHz;
        this.channels = channels;
        this.frames = frames;
        this.left = frames;
        buffer.limit(0);
    }

    /**
     * Opens {@code wav}, mono or stereo in either encoding, for {@code reader}, who is named in
     * errors ("the mixer"), as is the request's {@code field}.
     *
     * @throws UnsupportedMedia on {@code field} when it is not such a file
     */
    public static WavReader open(Path wav, String field, String reader) {
        return open(wav, field, reader, EnumSet.allOf(WavEncoding.class), 2);
    }

    /**
     * Opens {@code wav}, 16-bit PCM with any number of channels, for a reader that measures each
     * channel of what {@code AudioExtractor} writes (the analysis) and judges the channel count itself.
     *
     * @throws UnsupportedMedia on {@code field} when it is not such a file
     */
    public static WavReader openPcm16(Path wav, String field, String reader) {
        return open(wav, field, reader, EnumSet.of(WavEncoding.PCM16), Integer.MAX_VALUE);
    }

    private static WavReader open(Path wav, String field, String reader, Set<WavEncoding> takes, int maxChannels) {
        FileChannel channel;
        try {
            channel = FileChannel.open(wav, StandardOpenOption.READ);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + wav, e);
        }
        try {
            return header(channel, wav, field, reader, takes, maxChannels);
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

    public int rateHz() {
        return rateHz;
    }

    public int channels() {
        return channels;
    }

    /** Sample frames in the file (one frame = one sample per channel). */
    public long frames() {
        return frames;
    }

    /**
     * Reads up to {@code maxFrames} frames into {@code out[channel][0..]}, one array per channel of
     * the file.
     *
     * @return frames read; 0 at the end of the data
     */
    public int read(float[][] out, int maxFrames) {
        int wanted = (int) Math.min(maxFrames, left);
        int sampleBytes = encoding.bytes();
        int frameBytes = channels * sampleBytes;
        int done = 0;
        while (done < wanted) {
            if (buffer.remaining() < frameBytes && !refill(frameBytes)) {
                break;
            }
            int m = Math.min(wanted - done, buffer.remaining() / frameBytes);
            int at = buffer.position();
            if (encoding == WavEncoding.FLOAT32) {
                // Copied out in one go, then spread over the channels: a get per sample costs the
                // buffer's checks each time.
                int samples = m * channels;
                if (interleaved.length < samples) {
                    interleaved = new float[samples];
                }
                buffer.asFloatBuffer().get(interleaved, 0, samples);
                for (int c = 0; c < channels; c++) {
                    float[] channel = out[c];
                    for (int i = 0, from = c; i < m; i++, from += channels) {
                        channel[done + i] = interleaved[from];
                    }
                }
                at += samples * Float.BYTES;
            } else {
                for (int i = done; i < done + m; i++) {
                    for (int c = 0; c < channels; c++, at += sampleBytes) {
                        out[c][i] = buffer.getShort(at) * (1f / 32768f);
                    }
                }
            }
            buffer.position(at);
            done += m;
        }
        left -= done;
        return done;
    }

    /**
     * Fills {@code out[0..1][0..n)}: mono is copied to both sides, and frames past the end of the
     * data are zeros, so sources of different lengths can be summed block by block.
     */
    public void readStereo(float[][] out, int n) {
        if (channels > 2) {
            throw new IllegalStateException("a file of " + channels + " channels is not read as stereo");
        }
        int done = read(out, n);
        if (channels == 1) {
            System.arraycopy(out[0], 0, out[1], 0, done);
        }
        if (done < n) {
            Arrays.fill(out[0], done, n, 0f);
            Arrays.fill(out[1], done, n, 0f);
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

    /** Reads the header and positions {@code ch} at the first sample. */
    private static WavReader header(
            FileChannel ch, Path wav, String field, String reader, Set<WavEncoding> takes, int maxChannels)
            throws IOException {
        ByteBuffer riff = Riff.read(ch, 0, 12);
        if (riff == null
                || !Riff.tag(riff, 0).equals("RIFF")
                || !Riff.tag(riff, 8).equals("WAVE")) {
            throw unsupported(wav, field, reader, "not a RIFF/WAVE file");
        }
        long position = 12;
        int format = 0;
        int channels = 0;
        int rate = 0;
        int bits = 0;
        while (true) {
            ByteBuffer chunk = Riff.read(ch, position, 8);
            if (chunk == null) {
                throw unsupported(wav, field, reader, "no data chunk");
            }
            String id = Riff.tag(chunk, 0);
            long size = Integer.toUnsignedLong(chunk.getInt(4));
            long body = position + 8;
            if (id.equals("fmt ")) {
                ByteBuffer fmt = Riff.read(ch, body, 16);
                if (fmt == null) {
                    throw unsupported(wav, field, reader, "truncated fmt chunk");
                }
                format = Short.toUnsignedInt(fmt.getShort(0));
                channels = Short.toUnsignedInt(fmt.getShort(2));
                rate = fmt.getInt(4);
                bits = Short.toUnsignedInt(fmt.getShort(14));
                if (format == EXTENSIBLE && size >= 40) { // the real tag is in the sub-format GUID
                    ByteBuffer ext = Riff.read(ch, body + 24, 2);
                    format = ext == null ? format : Short.toUnsignedInt(ext.getShort(0));
                }
            } else if (id.equals("data")) {
                WavEncoding encoding = null;
                for (WavEncoding e : takes) {
                    encoding = e.formatTag == format && e.bits == bits ? e : encoding;
                }
                if (encoding == null || channels < 1 || channels > maxChannels || rate < 1) {
                    String need = takes.stream().map(e -> e.label).collect(Collectors.joining(" or "))
                            + (maxChannels == 2 ? ", mono or stereo" : "");
                    throw unsupported(
                            wav,
                            field,
                            reader,
                            "need " + need + "; found format " + format + ", " + bits + " bits, " + channels
                                    + " channels at " + rate + " Hz");
                }
                long available = Math.max(0, ch.size() - body);
                ch.position(body);
                return new WavReader(
                        ch, encoding, rate, channels, Math.min(size, available) / (channels * encoding.bytes()));
            }
            position = body + size + (size & 1); // chunks are padded to an even length
        }
    }

    private static UnsupportedMedia unsupported(Path wav, String field, String reader, String why) {
        return new UnsupportedMedia(field, wav.getFileName() + " is not a WAV file " + reader + " reads: " + why + ".");
    }
}
