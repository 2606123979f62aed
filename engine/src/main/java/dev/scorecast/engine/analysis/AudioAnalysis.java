package dev.scorecast.engine.analysis;

import dev.scorecast.engine.core.Span;
import java.util.List;

/**
 * What the video's own sound holds. {@code integratedLufs} per ITU-R BS.1770-4 (null when the
 * track is silent throughout: below the absolute gate), {@code truePeakDbtp} the 4x-oversampled
 * peak, {@code speech} the spans a voice activity detector heard, {@code onsets} note or hit
 * starts in seconds, and {@code loudness} the momentary loudness mapped to [0, 1] per {@code hop}
 * seconds (for the energy curve).
 */
public record AudioAnalysis(
        Double integratedLufs,
        double truePeakDbtp,
        List<Span> speech,
        List<Double> onsets,
        double hop,
        double[] loudness) {}
