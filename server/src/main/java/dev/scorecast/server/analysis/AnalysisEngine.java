package dev.scorecast.server.analysis;

import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.analysis.Analysis.VideoFacts;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.DoubleConsumer;

/** The engine's analysis as the server calls it; a seam for tests that must not decode video. */
@FunctionalInterface
public interface AnalysisEngine {
    /**
     * @param progress receives the fraction done, 0 to 1
     */
    Analysis analyze(Path video, Optional<Path> wav, VideoFacts facts, DoubleConsumer progress);
}
