package dev.scorecast.engine.media;

import java.time.Duration;
import java.util.Objects;

/**
 * Caps applied to an uploaded file before and while FFmpeg looks at it, so that a hostile or
 * merely huge upload costs bounded memory and time.
 *
 * @param maxWidth    widest coded picture accepted, in pixels
 * @param maxHeight   tallest coded picture accepted, in pixels
 * @param maxDuration longest file accepted
 * @param maxStreams  most streams (video, audio, subtitles, data) one file may hold
 */
public record MediaLimits(int maxWidth, int maxHeight, Duration maxDuration, int maxStreams) {

    /** 8K pictures, half an hour, 16 streams. */
    public static final MediaLimits DEFAULT = new MediaLimits(8192, 8192, Duration.ofMinutes(30), 16);

    // FFmpeg refuses pictures past about 16k x 16k anyway; the ceiling keeps maxPixels() in an int.
    private static final int MAX_SIDE = 32_768;
    // FFmpeg's own default cap on streams per file.
    private static final int MAX_STREAMS = 1000;

    public MediaLimits {
        Objects.requireNonNull(maxDuration, "maxDuration");
        if (maxWidth < 1 || maxWidth > MAX_SIDE) {
            throw new IllegalArgumentException("maxWidth must be 1.." + MAX_SIDE + " pixels, not " + maxWidth);
        }
        if (maxHeight < 1 || maxHeight > MAX_SIDE) {
            throw new IllegalArgumentException("maxHeight must be 1.." + MAX_SIDE + " pixels, not " + maxHeight);
        }
        if (maxDuration.isNegative() || maxDuration.isZero()) {
            throw new IllegalArgumentException("maxDuration must be positive, not " + maxDuration);
        }
        if (maxStreams < 1 || maxStreams > MAX_STREAMS) {
            throw new IllegalArgumentException("maxStreams must be 1.." + MAX_STREAMS + ", not " + maxStreams);
        }
    }

    /** The picture area cap handed to FFmpeg's decoders ({@code max_pixels}). */
    long maxPixels() {
        return Math.min((long) maxWidth * maxHeight, Integer.MAX_VALUE);
    }
}
