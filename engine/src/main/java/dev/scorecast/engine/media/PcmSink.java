package dev.scorecast.engine.media;

import java.nio.ByteBuffer;

/**
 * Where interleaved signed 16-bit PCM goes, in native byte order (little-endian on the x86-64
 * natives we ship, which is what WAV wants); lets the resampler not know about files.
 */
interface PcmSink {

    /** Consumes {@code pcm} from its position to its limit; the buffer is reused after the call. */
    void write(ByteBuffer pcm);
}
