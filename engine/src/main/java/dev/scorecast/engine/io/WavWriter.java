package dev.scorecast.engine.io;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Streams samples into a WAV file: planar float blocks, written as 32-bit float (stems and
 * intermediate mixes: no clipping, no rounding) or as 16-bit PCM with TPDF dither (the master), or
 * bytes already in the file's encoding (FFmpeg's decoded sound). Data goes to a hidden file beside
 * the target; {@link #commit()} writes the header with the final sizes and renames it into place,
 * so the target name only ever holds a complete file. Closing without committing deletes it.
 */
public final class WavWriter implements AutoCloseable {

    /** More data than a RIFF size field (unsigned 32-bit) can count. */
    public static final class TooLong extends IllegalStateException {
        TooLong(long bytes) {
            super("WAV data too long: " + bytes + " bytes");
        }
    }

    private static final int STAGING_BYTES = 1 << 18;
    private static final long UNKNOWN = 0xFFFF_FFFFL;

    private final PendingFile file;
    private final WavEncoding encoding;
    private final int rateHz;
    private final int channels;
    private final int frameBytes;
    // RIFF sizes are unsigned 32-bit and the RIFF size counts the header past its first 8 bytes.
    private final long maxDataBytes;
    // Batches small writes (a decoder's frames are a few KB) into large ones.
    private final ByteBuffer staging = ByteBuffer.allocateDirect(STAGING_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    // Seeded: the same mix always gives the same bytes, so a repeated job step is idempotent.
    private final SplittableRandom dither = new SplittableRandom(0x5C0CA57L);
    private float[] interleaved = new float[0];
    private long flushedBytes;
    private long clipped;

    private WavWriter(Path target, WavEncoding encoding, int rateHz, int channels, boolean durable) {
        this.encoding = encoding;
        this.rateHz = rateHz;
        this.channels = channels;
        this.frameBytes = channels * encoding.bytes();
        int headerBytes = headerBytes(encoding);
        this.maxDataBytes = UNKNOWN - (headerBytes - 8);
        this.file = durable ? PendingFile.create(target, headerBytes) : PendingFile.createScratch(target, headerBytes);
    }

    public static WavWriter create(Path target, WavEncoding encoding, int rateHz, int channels) {
        return new WavWriter(target, encoding, rateHz, channels, true);
    }

    /**
     * As {@link #create}, for a job's work file, which a crash may lose (the job, run again, writes
     * it again): committed without waiting for the disk ({@link PendingFile#createScratch}).
     */
    public static WavWriter scratch(Path target, WavEncoding encoding, int rateHz, int channels) {
        return new WavWriter(target, encoding, rateHz, channels, false);
    }

    /**
     * Appends {@code n} frames of {@code block[channel][0..n)}.
     *
     * @throws TooLong past what a WAV file can hold
     */
    public void write(float[][] block, int n) {
        write(block, n, null);
    }

    /**
     * As {@link #write(float[][], int)}, and puts into {@code written[channel][0..n)} the samples
     * as the file holds them (after the dither and rounding of 16-bit PCM), for a reader that
     * takes the same audio without reading the file back. {@code written} may be null.
     */
    public void write(float[][] block, int n, float[][] written) {
        room((long) n * frameBytes);
        int done = 0;
        while (done < n) {
            if (staging.remaining() < frameBytes) {
                drain();
            }
            int m = Math.min(n - done, staging.remaining() / frameBytes);
            if (encoding == WavEncoding.FLOAT32) {
                // Interleaved in an array, then copied into the buffer in one go: a put per sample
                // costs the buffer's checks each time, about three times the whole copy.
                int samples = m * channels;
                if (interleaved.length < samples) {
                    interleaved = new float[samples];
                }
                for (int c = 0; c < channels; c++) {
                    float[] channel = block[c];
                    for (int i = 0, at = c; i < m; i++, at += channels) {
                        interleaved[at] = channel[done + i];
                    }
                    if (written != null) {
                        System.arraycopy(channel, done, written[c], done, m);
                    }
                }
                staging.asFloatBuffer().put(interleaved, 0, samples);
                staging.position(staging.position() + samples * Float.BYTES);
            } else {
                for (int i = done; i < done + m; i++) {
                    for (int c = 0; c < channels; c++) {
                        // TPDF dither of +-1 LSB: two uniform variables, so quantisation error is
                        // independent of the signal and fades read as a smooth noise floor.
                        double d = dither.nextDouble() - dither.nextDouble();
                        long q = Math.round(block[c][i] * 32767.0 + d);
                        if (q > 32767 || q < -32768) {
                            clipped++;
                            q = Math.max(-32768, Math.min(32767, q));
                        }
                        staging.putShort((short) q);
                        if (written != null) {
                            written[c][i] = q * (1f / 32768f); // as WavReader reads it back
                        }
                    }
                }
            }
            done += m;
        }
    }

    /**
     * Appends what remains of {@code samples}: interleaved, little-endian, already in the file's
     * encoding; the buffer may be reused after the call.
     *
     * @throws TooLong past what a WAV file can hold
     */
    public void write(ByteBuffer samples) {
        room(samples.remaining());
        while (samples.hasRemaining()) {
            if (!staging.hasRemaining()) {
                drain();
            }
            int n = Math.min(staging.remaining(), samples.remaining());
            staging.put(staging.position(), samples, samples.position(), n);
            staging.position(staging.position() + n);
            samples.position(samples.position() + n);
        }
    }

    /** Appends {@code frames} frames of silence. */
    public void writeSilence(long frames) {
        ByteBuffer zeros = ByteBuffer.allocate(64 * 1024);
        long bytes = frames * frameBytes;
        while (bytes > 0) {
            zeros.clear().limit((int) Math.min(zeros.capacity(), bytes));
            bytes -= zeros.remaining();
            write(zeros);
        }
    }

    /** Frames written so far. */
    public long frames() {
        return (flushedBytes + staging.position()) / frameBytes;
    }

    /** 16-bit samples that had to be clamped; zero for a properly limited master. */
    public long clippedSamples() {
        return clipped;
    }

    /** Finishes the file and moves it to the target name, replacing any file there. */
    public void commit() {
        drain();
        file.commit(header(encoding, rateHz, channels, flushedBytes));
    }

    @Override
    public void close() {
        file.close();
    }

    /** The header of a stream of unknown length (live WAV audio): its sizes are the largest value, as such streams have. */
    public static byte[] streamHeader(WavEncoding encoding, int rateHz, int channels) {
        return header(encoding, rateHz, channels, UNKNOWN).array();
    }

    private void room(long bytes) {
        long total = flushedBytes + staging.position() + bytes;
        if (total > maxDataBytes) {
            throw new TooLong(total);
        }
    }

    private void drain() {
        staging.flip();
        flushedBytes += staging.remaining();
        file.write(staging);
        staging.clear();
    }

    private static int headerBytes(WavEncoding encoding) {
        return switch (encoding) {
            case PCM16 -> 44;
            case FLOAT32 -> 58; // an 18-byte fmt chunk and the fact chunk non-PCM data must have
        };
    }

    /** {@code dataBytes} of {@link #UNKNOWN} writes every size as that, as a live stream's header does. */
    private static ByteBuffer header(WavEncoding encoding, int rateHz, int channels, long dataBytes) {
        boolean f = encoding == WavEncoding.FLOAT32;
        int headerBytes = headerBytes(encoding);
        int frameBytes = channels * encoding.bytes();
        boolean unknown = dataBytes == UNKNOWN;
        ByteBuffer h = ByteBuffer.allocate(headerBytes).order(ByteOrder.LITTLE_ENDIAN);
        h.put("RIFF".getBytes(US_ASCII)).putInt((int) (unknown ? UNKNOWN : headerBytes - 8 + dataBytes));
        h.put("WAVE".getBytes(US_ASCII));
        h.put("fmt ".getBytes(US_ASCII)).putInt(f ? 18 : 16);
        h.putShort((short) encoding.formatTag);
        h.putShort((short) channels);
        h.putInt(rateHz);
        h.putInt(rateHz * frameBytes); // byte rate
        h.putShort((short) frameBytes); // block align
        h.putShort((short) encoding.bits);
        if (f) {
            h.putShort((short) 0); // cbSize
            h.put("fact".getBytes(US_ASCII)).putInt(4).putInt((int) (unknown ? UNKNOWN : dataBytes / frameBytes));
        }
        h.put("data".getBytes(US_ASCII)).putInt((int) dataBytes);
        return h.flip();
    }
}
