package dev.scorecast.engine.io;

import java.nio.file.Path;

/** Whole WAV files for tests: every sample in memory at once, so for short files only. */
public final class WavFiles {

    /** A whole file: its rate and its samples, planar stereo (mono copied to both sides). */
    public record Sound(int rateHz, float[][] stereo) {}

    private WavFiles() {}

    /** Every sample of {@code wav} and its rate; any file {@link WavReader} reads. */
    public static Sound read(Path wav) {
        try (WavReader in = WavReader.open(wav, "test", "the test")) {
            int n = Math.toIntExact(in.frames());
            float[][] out = new float[2][n];
            in.readStereo(out, n);
            return new Sound(in.rateHz(), out);
        }
    }

    /** Every sample of {@code wav}, planar stereo. */
    public static float[][] readAll(Path wav) {
        return read(wav).stereo();
    }
}
