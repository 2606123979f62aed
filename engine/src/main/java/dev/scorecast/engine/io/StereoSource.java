package dev.scorecast.engine.io;

/**
 * Stereo audio read front to back in planar float blocks: a WAV file ({@link WavReader}), or a
 * master while it is being made ({@link StereoPipe}), so an encoder need not wait for the file.
 */
public interface StereoSource extends AutoCloseable {

    int rateHz();

    /** Frames in the whole recording, known before the first is read. */
    long frames();

    /** Fills {@code out[0..1][0..n)} with the next frames; frames past the end are zeros. */
    void readStereo(float[][] out, int n);

    @Override
    void close();
}
