package dev.scorecast.server;

import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.analysis.Analysis.VideoFacts;
import dev.scorecast.server.analysis.AnalysisEngine;
import dev.scorecast.server.analysis.EngineAnalysis;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleConsumer;

/**
 * The real analysis, held at its start until the test releases it (60 s at most): for tests that
 * need a worker busy, or jobs waiting behind one, at a moment they choose.
 */
final class HeldAnalysis implements AnalysisEngine {
    private final AnalysisEngine real = EngineAnalysis.create();
    private final CountDownLatch started = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    @Override
    public Analysis analyze(Path video, Optional<Path> wav, VideoFacts facts, DoubleConsumer progress) {
        started.countDown();
        try {
            release.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return real.analyze(video, wav, facts, progress);
    }

    /** Whether a run started within {@code seconds}. */
    boolean awaitStart(long seconds) throws InterruptedException {
        return started.await(seconds, TimeUnit.SECONDS);
    }

    /** Lets every held run, and every later one, go on. */
    void release() {
        release.countDown();
    }
}
