package dev.scorecast.engine.render;

import static java.nio.charset.StandardCharsets.US_ASCII;

import dev.scorecast.engine.io.PendingFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Writes planar float blocks to a stereo WAV file, as 32-bit float (stems and intermediate mixes:
 * no clipping, no rounding) or as 16-bit PCM with TPDF dither (the master). Data goes to a hidden
 * file beside the target; {@link #commit()} fixes the header and renames it into place, so the
 * target name only ever holds a complete file.
 */
final class WavOut implements AutoCloseable {

    enum Encoding { FLOAT32, PCM16 }

    private static final int STAGING_BYTES = 1 << 18;

    private final PendingFile file;
    private final Encoding encoding;
    private final int channels;
    private final int rate;
    private final int headerBytes;
    private final ByteBuffer staging = ByteBuffer.allocateDirect(STAGING_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    // Seeded: the same mix always gives the same bytes, so a repeated job step is idempotent.
    private final SplittableRandom dither = new SplittableRandom(0x5C0CA57L);
    private long frames;
    private long clipped;

    private WavOut(Encoding encoding, int rate, int channels, Path target) {
        this.encoding = encoding;
        this.rate = rate;
        this.channels = channels;
        this.headerBytes = encoding == Encoding.FLOAT32 ? 58 : 44;
        this.file = PendingFile.create(target, headerBytes);
    }

    static WavOut create(Path target, Encoding encoding, int rate, int channels) {
        return new WavOut(encoding, rate, channels, target);
    }

    /** Appends {@code n} frames of {@code block[channel][0..n)}. */
    void write(float[][] block, int n) {
        int frameBytes = channels * (encoding == Encoding.FLOAT32 ? 4 : 2);
        int done = 0;
        while (done < n) {
            if (staging.remaining() < frameBytes) {
                drain();
            }
            int m = Math.min(n - done, staging.remaining() / frameBytes);
            if (encoding == Encoding.FLOAT32) {
                for (int i = done; i < done + m; i++) {
                    for (int c = 0; c < channels; c++) {
                        staging.putFloat(block[c][i]);
                    }
                }
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
                    }
                }
            }
            done += m;
        }
        frames += n;
    }

    long frames() {
        return frames;
    }

    /** 16-bit samples that had to be clamped; zero for a properly limited master. */
    long clippedSamples() {
        return clipped;
    }

    void commit() {
        drain();
        file.commit(header());
    }

    @Override
    public void close() {
        file.close();
    }

    private void drain() {
        staging.flip();
        file.write(staging);
        staging.clear();
    }

    private ByteBuffer header() {
        boolean f = encoding == Encoding.FLOAT32;
        int sampleBytes = f ? 4 : 2;
        long dataBytes = frames * channels * sampleBytes;
        if (dataBytes > 0xFFFF_FFFFL - headerBytes) {
            throw new IllegalStateException("WAV data too long: " + dataBytes + " bytes");
        }
        ByteBuffer h = ByteBuffer.allocate(headerBytes).order(ByteOrder.LITTLE_ENDIAN);
        h.put("RIFF".getBytes(US_ASCII)).putInt((int) (headerBytes - 8 + dataBytes));
        h.put("WAVE".getBytes(US_ASCII));
        h.put("fmt ".getBytes(US_ASCII)).putInt(f ? 18 : 16);
        h.putShort((short) (f ? 3 : 1)); // IEEE float or PCM
        h.putShort((short) channels);
        h.putInt(rate);
        h.putInt(rate * channels * sampleBytes);
        h.putShort((short) (channels * sampleBytes));
        h.putShort((short) (sampleBytes * 8));
        if (f) {
            h.putShort((short) 0); // cbSize
            h.put("fact".getBytes(US_ASCII)).putInt(4).putInt((int) frames);
        }
        h.put("data".getBytes(US_ASCII)).putInt((int) dataBytes);
        return h.flip();
    }
}
