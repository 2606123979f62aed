package dev.scorecast.server.analysis;

import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.analysis.Analysis.VideoFacts;
import dev.scorecast.engine.analysis.AnalysisAssembler;
import dev.scorecast.engine.analysis.AudioAnalysis;
import dev.scorecast.engine.analysis.VisualAnalysis;
import dev.scorecast.engine.analysis.VisualAnalyzer;
import dev.scorecast.engine.analysis.VisualOptions;
import dev.scorecast.engine.analysis.audio.AudioAnalyzer;
import dev.scorecast.engine.error.ScorecastException;
import dev.scorecast.engine.media.MediaLimits;
import dev.scorecast.engine.style.GenreCatalog;
import dev.scorecast.engine.voice.speech.SileroSpeechDetector;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.DoubleConsumer;

/**
 * The real analysis: the picture pass and the sound pass run side by side (the picture pass is
 * FFmpeg decoding, the sound pass is cheap arithmetic on the extracted WAV, so on two cores the
 * sound costs almost nothing extra), then {@link AnalysisAssembler} joins them.
 */
public final class EngineAnalysis implements AnalysisEngine {
    /** The share of progress the picture pass reports; the assembling after it is quick. */
    private static final double PICTURE_SHARE = 0.95;

    private final VisualOptions visualOptions;
    private final AudioAnalyzer audio;
    private final GenreCatalog genres;

    public EngineAnalysis(VisualOptions visualOptions, AudioAnalyzer audio, GenreCatalog genres) {
        this.visualOptions = Objects.requireNonNull(visualOptions, "visualOptions");
        this.audio = Objects.requireNonNull(audio, "audio");
        this.genres = Objects.requireNonNull(genres, "genres");
    }

    /** With the Silero model from {@link SileroSpeechDetector#configuredModel()}; fails at once when it is missing. */
    public static EngineAnalysis create(MediaLimits limits) {
        return new EngineAnalysis(
                VisualOptions.DEFAULT.withLimits(limits),
                new AudioAnalyzer(SileroSpeechDetector.load()),
                GenreCatalog.builtIn());
    }

    public static EngineAnalysis create() {
        return create(MediaLimits.DEFAULT);
    }

    @Override
    public Analysis analyze(Path video, Optional<Path> wav, VideoFacts facts, DoubleConsumer progress) {
        CompletableFuture<Optional<AudioAnalysis>> sound =
                CompletableFuture.supplyAsync(() -> wav.map(audio::analyze), EngineAnalysis::onPlatformThread);
        VisualAnalysis picture;
        try {
            picture =
                    VisualAnalyzer.analyze(video, visualOptions, fraction -> progress.accept(fraction * PICTURE_SHARE));
        } catch (RuntimeException e) {
            sound.cancel(true);
            throw e;
        }
        Optional<AudioAnalysis> heard;
        try {
            heard = sound.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof ScorecastException bad) {
                throw bad;
            }
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        Analysis analysis = AnalysisAssembler.assemble(facts, picture, heard, genres);
        progress.accept(1);
        return analysis;
    }

    /** ONNX Runtime and file reading pin their thread for a while; a platform thread keeps virtual-thread carriers free. */
    private static void onPlatformThread(Runnable task) {
        Thread.ofPlatform().name("analysis-audio").daemon().start(task);
    }
}
