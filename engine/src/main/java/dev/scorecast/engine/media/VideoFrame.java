package dev.scorecast.engine.media;

/**
 * One picture at analysis size, upright, as packed 8-bit RGB: three bytes per pixel, rows top to
 * bottom, no padding. Mutable on purpose: a {@link FrameSource} overwrites the same frame on every
 * read, so a pass over a long video allocates nothing per frame.
 */
public final class VideoFrame {
    private final int width;
    private final int height;
    private final byte[] rgb;
    private long index;
    private double timeSeconds;

    public VideoFrame(int width, int height) {
        if (width < 1 || height < 1) {
            throw new IllegalArgumentException("width and height must be positive: " + width + "x" + height);
        }
        this.width = width;
        this.height = height;
        this.rgb = new byte[Math.multiplyExact(Math.multiplyExact(width, height), 3)];
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    /** The pixels, {@code width * height * 3} bytes; sources write into it, readers must not keep it. */
    public byte[] rgb() {
        return rgb;
    }

    /** Position of the picture in decoding output order, counting pictures that were skipped as corrupt. */
    public long index() {
        return index;
    }

    /** Presentation time in seconds from the start of the video. */
    public double timeSeconds() {
        return timeSeconds;
    }

    /** Sets where the picture now in {@link #rgb()} sits in the video. */
    public void stamp(long index, double timeSeconds) {
        if (index < 0 || !(timeSeconds >= 0)) {
            throw new IllegalArgumentException("index and time must not be negative: " + index + ", " + timeSeconds);
        }
        this.index = index;
        this.timeSeconds = timeSeconds;
    }
}
