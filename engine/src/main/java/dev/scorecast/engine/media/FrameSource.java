package dev.scorecast.engine.media;

/**
 * Pictures of a video in presentation order, small and upright, one at a time into a frame the
 * caller owns. Analysis reads video only through this interface, so its tests can feed synthetic
 * pictures without FFmpeg. Not thread-safe.
 */
public interface FrameSource extends AutoCloseable {

    /** Width in pixels of every frame this source delivers. */
    int width();

    /** Height in pixels of every frame this source delivers. */
    int height();

    /** How long the video lasts in seconds according to its container, or NaN when it does not say. */
    double durationSeconds();

    /**
     * Overwrites {@code frame} (which must be {@link #width()} x {@link #height()}) with the next
     * picture and its index and time.
     *
     * @return false at the end of the video, leaving {@code frame} as it was
     */
    boolean read(VideoFrame frame);

    /** Pictures passed over so far because they could not be decoded or decoded with errors. */
    long framesSkipped();

    /**
     * Intact pictures passed over undecoded so far because nothing needed them (non-reference
     * pictures a source that decodes reference pictures only left out); 0 for a source that
     * delivers every picture.
     */
    default long framesPassedOver() {
        return 0;
    }

    @Override
    void close();
}
