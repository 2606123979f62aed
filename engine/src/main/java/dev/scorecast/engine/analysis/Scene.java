package dev.scorecast.engine.analysis;

/**
 * A stretch between two transitions, in seconds. All measures are in [0, 1]: {@code motion} the
 * mean frame-to-frame change, {@code brightness} mean luma, {@code colorfulness} the
 * Hasler-Suesstrunk measure scaled to [0, 1], {@code warmth} 0.5 neutral, above warm (red-yellow),
 * below cool (blue).
 */
public record Scene(int index, double start, double end, double motion, double brightness, double colorfulness, double warmth) {}
