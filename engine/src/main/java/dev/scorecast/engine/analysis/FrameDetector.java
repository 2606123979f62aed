package dev.scorecast.engine.analysis;

/**
 * Looks at every frame of one decode pass. Detectors run side by side on the same frames and
 * keep only what they need, so one pass feeds them all and memory stays flat.
 */
public interface FrameDetector {

    /** Sees the next frame; the frame and its buffers are reused once this returns. */
    void accept(Frame frame);

    /** Called once after the last frame, for detectors that hold decisions back while looking ahead. */
    default void finish() {}
}
