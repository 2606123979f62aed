package dev.scorecast.engine.analysis;

/** Whether a frame is blank black, blank white or shows a picture; fades run to and from the first two. */
public enum Tone {
    BLACK,
    WHITE,
    PICTURE;

    // A blank frame may keep a faint logo or noise; a dark night scene still has lit pixels.
    private static final double BLANK_MEAN = 0.07;
    private static final double STRAY_PIXELS = 0.02;

    static Tone of(double meanLuma, double litFraction, double unlitFraction) {
        if (meanLuma <= BLANK_MEAN && litFraction <= STRAY_PIXELS) {
            return BLACK;
        }
        if (meanLuma >= 1 - BLANK_MEAN && unlitFraction <= STRAY_PIXELS) {
            return WHITE;
        }
        return PICTURE;
    }
}
