package dev.scorecast.engine.io;

import dev.scorecast.engine.error.UnsupportedMedia;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * What a WAV file's header says: the sample encoding and where the samples are. Chunks other than
 * {@code fmt } and {@code data} (LIST, fact, ...) are skipped, since FFmpeg and other writers add
 * them; WAVE_FORMAT_EXTENSIBLE is read through to its real format tag; a data size past the end
 * of the file (a writer that died before fixing its header) is cut to what the file holds. Each
 * reader then says which encodings it takes.
 *
 * @param formatTag  1 integer PCM, 3 IEEE float
 * @param dataOffset the byte where the first sample starts
 * @param frames     samples per channel in the file
 */
public record WavFormat(int formatTag, int channels, int rateHz, int bits, long dataOffset, long frames) {
    public static final int PCM = 1;
    public static final int IEEE_FLOAT = 3;
    private static final int EXTENSIBLE = 0xFFFE;

    /** An open file positioned at its first sample, with its format. */
    public record Opened(FileChannel channel, WavFormat format) {}

    public String describe() {
        return "format " + formatTag + ", " + bits + " bits, " + channels + " channels at " + rateHz + " Hz";
    }

    /**
     * Opens {@code wav} and reads its header, positioning the channel at the first sample; the
     * caller owns the channel. {@code reader} names who reads it in errors ("the mixer").
     *
     * @throws UnsupportedMedia on {@code field} when the header is not a RIFF/WAVE one
     */
    public static Opened open(Path wav, String field, String reader) {
        FileChannel channel;
        try {
            channel = FileChannel.open(wav, StandardOpenOption.READ);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + wav, e);
        }
        try {
            return new Opened(channel, header(channel, wav, field, reader));
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel, e);
            if (e instanceof IOException io) {
                throw new UncheckedIOException("cannot read " + wav, io);
            }
            throw (RuntimeException) e;
        }
    }

    /** Closes {@code opened} and answers the error for an encoding {@code reader} does not take. */
    public static UnsupportedMedia refuse(Opened opened, Path wav, String field, String reader, String why) {
        UnsupportedMedia e = unsupported(wav, field, reader, why);
        closeQuietly(opened.channel(), e);
        return e;
    }

    private static WavFormat header(FileChannel ch, Path wav, String field, String reader) throws IOException {
        ByteBuffer riff = Riff.read(ch, 0, 12);
        if (riff == null || !Riff.tag(riff, 0).equals("RIFF") || !Riff.tag(riff, 8).equals("WAVE")) {
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
                int frameBytes = Math.max(1, channels * bits / 8);
                long available = Math.max(0, ch.size() - body);
                ch.position(body);
                return new WavFormat(format, channels, rate, bits, body, Math.min(size, available) / frameBytes);
            }
            position = body + size + (size & 1); // chunks are padded to an even length
        }
    }

            private static UnsupportedMedia unsupported(Path wav, String field, String reader, String why) {
        return new UnsupportedMedia(field, wav.getFileName() + " is not a WAV file " + reader + " reads: " + why + ".");
    }

    private static void closeQuietly(FileChannel channel, Exception cause) {
        try {
            channel.close();
        } catch (IOException suppressed) {
            cause.addSuppressed(suppressed);
        }
    }
}
