package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avcodec.AVDISCARD_BIDIR;
import static org.bytedeco.ffmpeg.global.avcodec.AVDISCARD_DEFAULT;
import static org.bytedeco.ffmpeg.global.avcodec.AVDISCARD_NONREF;

/** Which pictures a decoder passes over undecoded (FFmpeg's {@code skip_frame}). */
enum PassOver {
    /** Every picture is decoded. */
    NOTHING(AVDISCARD_DEFAULT),
    /** Pictures no other picture refers to: safe for any stream. */
    NON_REFERENCE(AVDISCARD_NONREF),
    /**
     * Every B picture, reference ones too: only for a stream whose I and P pictures never refer to
     * a B picture, which {@link BidirectionalCheck} finds out.
     */
    BIDIRECTIONAL(AVDISCARD_BIDIR);

    final int discard;

    PassOver(int discard) {
        this.discard = discard;
    }
}
