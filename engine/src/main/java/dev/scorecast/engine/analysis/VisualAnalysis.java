package dev.scorecast.engine.analysis;

import java.util.List;

/**
 * What one decode pass over the picture found. {@code motion} is one value in [0, 1] per
 * {@code hop} seconds from 0 to the duration. {@code framesDecoded} (pictures read intact: decoded,
 * or non-reference pictures passed over because no cut could hide among them) and
 * {@code framesSkipped} (corrupt frames passed over) let a caller judge how trustworthy the rest is.
 */
public record VisualAnalysis(
        List<Cut> cuts,
        List<Scene> scenes,
        double hop,
        double[] motion,
        long framesDecoded,
        long framesSkipped,
        List<String> warnings) {}
