package dev.scorecast.engine.sampler;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One decoded sample: 16-bit PCM, mono or interleaved stereo, read straight from a memory-mapped
 * file. Nothing of it is on the Java heap; the operating system pages it in when a voice first
 * reads it and shares those pages between every sampler of the process (and every process).
 */
final class Sample {
    private static final ValueLayout.OfShort PCM = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final float SCALE = 1f / 32768f;

    private final MemorySegment data;
    final int frames;
    /** Channels as played: 1 when the file's two channels are the same (a mono source the decoder copied). */
    final int channels;
    /** Channels in the file. */
    private final int stride;

    final int rate;
    final String name;

    Sample(String name, MemorySegment data, int channels, int rate) {
        this.name = name;
        this.data = data;
        this.stride = channels;
        this.rate = rate;
        this.frames = (int) (data.byteSize() / (2L * channels));
        this.channels = channels == 2 && sameChannels() ? 1 : channels;
    }

    /** Whether both channels hold the same samples (read until they first differ, so a real stereo file costs a few pages). */
    private boolean sameChannels() {
        for (long f = 0; f < frames; f++) {
            if (data.get(PCM, f * 4) != data.get(PCM, f * 4 + 2)) {
                return false;
            }
        }
        return true;
    }

    /** Sample {@code frame} of channel {@code channel} (0 beyond either end, so interpolation needs no special edge). */
    float at(int frame, int channel) {
        if (frame < 0 || frame >= frames) {
            return 0f;
        }
        return data.get(PCM, ((long) frame * stride + channel) << 1) * SCALE;
    }

    /** As {@link #at} for a frame known to be inside the sample. */
    float inside(int frame, int channel) {
        return data.get(PCM, ((long) frame * stride + channel) << 1) * SCALE;
    }

    /** The largest absolute sample value, scanned once (for tests and levels). */
    float peak() {
        float p = 0;
        for (int f = 0; f < frames; f++) {
            for (int c = 0; c < channels; c++) {
                p = Math.max(p, Math.abs(inside(f, c)));
            }
        }
        return p;
    }
}
