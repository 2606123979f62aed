package dev.scorecast.engine.render;

import com.sun.media.sound.AudioFloatInputStream;
import com.sun.media.sound.ModelByteBufferWavetable;
import com.sun.media.sound.ModelOscillatorStream;
import com.sun.media.sound.ModelWavetable;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import javax.sound.sampled.AudioFormat;

/**
 * A SoundFont sample held as floats, with the loop and tuning of the wavetable it replaces.
 *
 * <p>Gervill keeps samples as 16-bit bytes and converts every block a voice reads back to float;
 * with forty voices sounding, that conversion was a tenth of a synthesizer's time (profiled on the
 * live player). Converting once, when the instrument is loaded, turns each read into an array copy
 * and shares the floats between every synthesizer. The conversion is Gervill's own (x/32767 above
 * zero, x/32768 below), so the audio is the same to the bit.
 */
final class FloatWavetable implements ModelWavetable {
    private static final ValueLayout.OfShort PCM16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    /** The floats, when held on the heap; else null and {@link #pcm} holds the sample. */
    private final float[] samples;
    /**
     * The sample's 16-bit little-endian data inside the memory-mapped SF2 file, when it is played from
     * there: nothing of it on the heap, the pages shared by every synthesizer and read from disk when
     * first played. Each read converts the block it copies (a plain loop, the same formula as
     * {@link #toFloats}, so the audio is the same to the bit).
     */
    private final MemorySegment pcm;

    private final int length;
    private final AudioFormat format;
    private final float loopStart;
    private final float loopLength;
    private final int loopType;
    private final float pitchCorrection;
    private final float attenuation;

    private FloatWavetable(float[] samples, MemorySegment pcm, float sampleRate, ModelByteBufferWavetable original) {
        this.samples = samples;
        this.pcm = pcm;
        this.length = samples != null ? samples.length : (int) (pcm.byteSize() / 2);
        this.format = new AudioFormat(AudioFormat.Encoding.PCM_FLOAT, sampleRate, 32, 1, 4, sampleRate, false);
        this.loopStart = original.getLoopStart();
        this.loopLength = original.getLoopLength();
        this.loopType = original.getLoopType();
        this.pitchCorrection = original.getPitchcorrection();
        this.attenuation = original.getAttenuation();
    }

    /** Whether {@code w} is a 16-bit little-endian mono sample, the kind this class holds (SF2's own; not its 24-bit kind). */
    static boolean holds(ModelByteBufferWavetable w) {
        AudioFormat f = w.getFormat();
        return f != null
                && w.get8BitExtensionBuffer() == null
                && w.getBuffer() != null
                && f.getChannels() == 1
                && f.getSampleSizeInBits() == 16
                && !f.isBigEndian()
                && AudioFormat.Encoding.PCM_SIGNED.equals(f.getEncoding());
    }

    /** {@code w} played from {@code samples}, its data converted by {@link #toFloats}. */
    static FloatWavetable of(ModelByteBufferWavetable w, float[] samples) {
        return new FloatWavetable(samples, null, w.getFormat().getSampleRate(), w);
    }

    /** {@code w} played from {@code pcm}, its 16-bit data in a memory-mapped file. */
    static FloatWavetable mapped(ModelByteBufferWavetable w, MemorySegment pcm) {
        return new FloatWavetable(null, pcm, w.getFormat().getSampleRate(), w);
    }

    /** Gervill's 16-bit little-endian to float conversion, done once for the whole sample. */
    static float[] toFloats(byte[] data, int offset, int bytes) {
        float[] out = new float[bytes / 2];
        for (int i = 0, ix = offset; i < out.length; i++, ix += 2) {
            short x = (short) (data[ix] & 0xFF | data[ix + 1] << 8);
            out[i] = x > 0 ? x / 32767.0f : x / 32768.0f;
        }
        return out;
    }

    @Override
    public AudioFloatInputStream openStream() {
        return new Reader(samples, pcm, length, format);
    }

    @Override
    public float getLoopLength() {
        return loopLength;
    }

    @Override
    public float getLoopStart() {
        return loopStart;
    }

    @Override
    public int getLoopType() {
        return loopType;
    }

    @Override
    public float getPitchcorrection() {
        return pitchCorrection;
    }

    @Override
    public int getChannels() {
        return 1;
    }

    @Override
    public float getAttenuation() {
        return attenuation;
    }

    @Override
    public ModelOscillatorStream open(float sampleRate) {
        return null; // Gervill plays a wavetable through its resampler, from openStream()
    }

    /** One voice's read position in the shared samples; mark and reset are how the resampler loops. */
    private static final class Reader extends AudioFloatInputStream {
        private final float[] samples;
        private final MemorySegment pcm;
        private final int length;
        private final AudioFormat format;
        private int position;
        private int mark;

        Reader(float[] samples, MemorySegment pcm, int length, AudioFormat format) {
            this.samples = samples;
            this.pcm = pcm;
            this.length = length;
            this.format = format;
        }

        @Override
        public AudioFormat getFormat() {
            return format;
        }

        @Override
        public long getFrameLength() {
            return length;
        }

        @Override
        public int read(float[] b, int off, int len) {
            if (position >= length) {
                return -1;
            }
            int n = Math.min(len, length - position);
            if (samples != null) {
                System.arraycopy(samples, position, b, off, n);
            } else {
                long at = (long) position * 2;
                for (int i = 0; i < n; i++, at += 2) {
                    short x = pcm.get(PCM16, at);
                    b[off + i] = x > 0 ? x / 32767.0f : x / 32768.0f;
                }
            }
            position += n;
            return n;
        }

        @Override
        public long skip(long len) {
            if (position >= length) {
                return -1; // as Gervill's own byte-array stream answers at the end
            }
            if (len <= 0) {
                return 0;
            }
            int n = (int) Math.min(len, length - position);
            position += n;
            return n;
        }

        @Override
        public int available() {
            return length - position;
        }

        @Override
        public void close() {
            // nothing to release: the samples belong to the instrument
        }

        @Override
        public void mark(int readLimit) {
            mark = position;
        }

        @Override
        public boolean markSupported() {
            return true;
        }

        @Override
        public void reset() {
            position = mark;
        }
    }
}
