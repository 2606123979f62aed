package dev.scorecast.engine.media;

import static java.nio.charset.StandardCharsets.US_ASCII;

import dev.scorecast.engine.error.Unprocessable;
import dev.scorecast.engine.io.PendingFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * Streams 16-bit PCM into a RIFF WAV file. Data goes to a hidden temporary file beside the
 * target; {@link #commit()} writes the header with the final sizes, syncs, and renames it into
 * place, so the target name only ever holds a complete file. Closing without committing deletes
 * the temporary file.
 */
final class WavWriter implements PcmSink, AutoCloseable {

    private static final int HEADER_BYTES = 44;
    // RIFF sizes are unsigned 32-bit and the RIFF size counts 36 header bytes besides the data.
    private static final long MAX_DATA_BYTES = 0xFFFF_FFFFL - 36;
    private static final int STAGING_BYTES = 1 << 20;

    private final PendingFile file;
    private final int sampleRate;
    private final int channels;
    private final int frameBytes;
    // Batches the decoder's small frames (a few KB each) into large writes.
    private final ByteBuffer staging = ByteBuffer.allocateDirect(STAGING_BYTES);
    private long dataBytes;

    private WavWriter(Path target, int sampleRate, int channels) {
        this.file = PendingFile.create(target, HEADER_BYTES);
        this.sampleRate = sampleRate;
        this.channels = channels;
        this.frameBytes = channels * Short.BYTES;
    }

    static WavWriter create(Path target, int sampleRate, int channels) {
        return new WavWriter(target, sampleRate, channels);
    }

    @Override
    public void write(ByteBuffer pcm) {
        int bytes = pcm.remaining();
        if (dataBytes + staging.position() + bytes > MAX_DATA_BYTES) {
            throw new Unprocessable("file", "The video's audio is longer than a WAV file can hold (about 6 hours); "
                    + "trim the video and upload again.");
        }
        while (pcm.hasRemaining()) {
            if (!staging.hasRemaining()) {
                drain();
            }
            int n = Math.min(staging.remaining(), pcm.remaining());
            staging.put(staging.position(), pcm, pcm.position(), n);
            staging.position(staging.position() + n);
            pcm.position(pcm.position() + n);
        }
    }

    /** Appends {@code frames} sample frames of silence. */
    void writeSilence(long frames) {
        ByteBuffer zeros = ByteBuffer.allocate(64 * 1024);
        long bytes = frames * frameBytes;
        while (bytes > 0) {
            zeros.clear().limit((int) Math.min(zeros.capacity(), bytes));
            bytes -= zeros.remaining();
            write(zeros);
        }
    }

    /** Sample frames written so far. */
    long frames() {
        return (dataBytes + staging.position()) / frameBytes;
    }

    /** Finishes the file and moves it to the target name, replacing any file there. */
    void commit() {
        drain();
        file.commit(header(dataBytes));
    }

    @Override
    public void close() {
        file.close();
    }

    private void drain() {
        staging.flip();
        dataBytes += staging.remaining();
        file.write(staging);
        staging.clear();
    }

    private ByteBuffer header(long dataBytes) {
        ByteBuffer h = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        h.put("RIFF".getBytes(US_ASCII)).putInt((int) (36 + dataBytes));
        h.put("WAVE".getBytes(US_ASCII));
        h.put("fmt ".getBytes(US_ASCII)).putInt(16);
        h.putShort((short) 1); // PCM
        h.putShort((short) channels);
        h.putInt(sampleRate);
        h.putInt(sampleRate * frameBytes); // byte rate
        h.putShort((short) frameBytes); // block align
        h.putShort((short) 16); // bits per sample
        h.put("data".getBytes(US_ASCII)).putInt((int) dataBytes);
        return h.flip();
    }

}
