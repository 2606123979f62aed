package dev.scorecast.engine.analysis;

/**
 * A stretch between two transitions, in seconds. All measures are in [0, 1]: {@code motion} the
 * motion the music follows (the largest of subject motion, 0.8 x camera motion and 0.7 x flicker),
 * {@code cameraMotion} how fast the picture as a whole moves (pans, tilts), {@code subjectMotion}
 * how fast things move within it, {@code flicker} how fast its light changes, each the mean over the
 * scene on the logarithmic speed scale docs/ANALYSIS.md gives; {@code brightness} mean luma,
 * {@code colorfulness} the Hasler-Suesstrunk measure scaled to [0, 1], {@code warmth} 0.5 neutral,
 * above warm (red-yellow), below cool (blue).
 */
public record Scene(
        int index,
        double start,
        double end,
        double motion,
        double brightness,
        double colorfulness,
        double warmth,
        double cameraMotion,
        double subjectMotion,
        double flicker) {

    /** A scene whose motion is not told apart (an analysis from before issue 26, or a client's). */
    public Scene(
            int index, double start, double end, double motion, double brightness, double colorfulness, double warmth) {
        this(index, start, end, motion, brightness, colorfulness, warmth, 0, motion, 0);
    }
}
