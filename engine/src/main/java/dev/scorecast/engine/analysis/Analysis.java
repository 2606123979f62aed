package dev.scorecast.engine.analysis;

import dev.scorecast.engine.core.Span;
import java.util.List;

/**
 * Everything the planner needs to know about a video, version 1 (docs/ANALYSIS.md describes each
 * field). Immutable; serialised to JSON as is, with snake_case names.
 */
public record Analysis(
        int version,
        VideoFacts video,
        List<Cut> cuts,
        List<Scene> scenes,
        Energy energy,
        AudioFacts audio,
        Mood mood,
        Suggestions suggestions,
        Quality quality) {

    public static final int VERSION = 1;

    /** The container's facts as the probe found them. Seconds, pixels, frames per second. */
    public record VideoFacts(
            double duration,
            int width,
            int height,
            double fps,
            long frames,
            boolean hasAudio,
            String codec,
            int rotation) {}

    /** The energy curve: one value in [0, 1] every {@code hop} seconds from 0. */
    public record Energy(double hop, double[] values) {}

    /**
     * The video's own sound: null loudness and empty lists when it has no audio track or the
     * track is silent.
     */
    public record AudioFacts(
            Double integratedLufs, Double truePeakDbtp, List<Span> speech, List<Double> onsets, double speechRatio) {}

    /** Valence (sad to happy) and arousal (calm to excited), each in [0, 1]. */
    public record Mood(double valence, double arousal) {}

    /** A genre id from the catalogue and a tempo in beats per minute within its range. */
    public record Suggestions(
            String genre, double tempo, double tempoMin, double tempoMax, List<String> alternatives) {}

    /** How much of the file could be read, and what the analysis had to work around. */
    public record Quality(long framesDecoded, long framesSkipped, List<String> warnings) {}
}
