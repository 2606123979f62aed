package dev.scorecast.bench;

import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.analysis.Analysis.VideoFacts;
import dev.scorecast.engine.analysis.AnalysisAssembler;
import dev.scorecast.engine.analysis.AudioAnalysis;
import dev.scorecast.engine.analysis.VisualAnalysis;
import dev.scorecast.engine.analysis.VisualAnalyzer;
import dev.scorecast.engine.analysis.VisualOptions;
import dev.scorecast.engine.analysis.audio.AudioAnalyzer;
import dev.scorecast.engine.media.AudioExtractor;
import dev.scorecast.engine.media.AudioTrack;
import dev.scorecast.engine.media.FfmpegFrameSource;
import dev.scorecast.engine.media.MediaLimits;
import dev.scorecast.engine.media.VideoFrame;
import dev.scorecast.engine.media.VideoInfo;
import dev.scorecast.engine.media.VideoProbe;
import dev.scorecast.engine.style.GenreCatalog;
import dev.scorecast.engine.voice.speech.SileroSpeechDetector;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The work the analysis benchmark times, built from engine calls only so that the benchmark needs
 * no server. {@link #analyze} has the shape of the server's EngineAnalysis: the picture pass on the
 * calling thread, the sound pass on a second platform thread, then the assembler. If the server
 * changes that shape, change this too, or the figures stop meaning what the docs say.
 */
final class AnalysisUnderTest {
    private final AudioAnalyzer audio;
    private final GenreCatalog genres = GenreCatalog.builtIn();

    private AnalysisUnderTest(AudioAnalyzer audio) {
        this.audio = audio;
    }

    /** Loads the speech model once, as the server does at start, so no timed run pays for it. */
    static AnalysisUnderTest load() {
        return new AnalysisUnderTest(new AudioAnalyzer(SileroSpeechDetector.load()));
    }

    static VideoInfo probe(Path video) {
        return VideoProbe.probe(video, MediaLimits.DEFAULT);
    }

    /** The facts the server records for an upload whose sound was extracted. */
    static VideoFacts facts(VideoInfo info) {
        return new VideoFacts(
                info.duration(),
                info.width(),
                info.height(),
                info.fps(),
                info.frames(),
                info.hasAudio(),
                info.videoCodec(),
                info.rotation());
    }

    /**
     * Decodes every picture and shrinks it exactly as the picture pass gets it (same source, limits
     * and size), doing nothing with it: the floor under the analysis time.
     *
     * @return pictures delivered
     */
    static long decodeOnly(Path video) {
        try (var source =
                FfmpegFrameSource.open(video, MediaLimits.DEFAULT, FfmpegFrameSource.DEFAULT_LONG_SIDE_PIXELS)) {
            var frame = new VideoFrame(source.width(), source.height());
            long frames = 0;
            while (source.read(frame)) {
                frames++;
            }
            return frames;
        }
    }

    /** What the server does when an upload completes, before any analysis is asked for. */
    static AudioTrack extract(Path video, Path wav) {
        return AudioExtractor.extractWav(video, wav)
                .orElseThrow(
                        () -> new IllegalStateException(video + " has no sound; the benchmark clips all have some"));
    }

    Analysis analyze(Path video, Path wav, VideoFacts facts) {
        CompletableFuture<AudioAnalysis> sound = new CompletableFuture<>();
        // A platform thread, as in the server: ONNX Runtime would pin a virtual thread's carrier anyway.
        Thread.ofPlatform().name("bench-sound").daemon().start(() -> {
            try {
                sound.complete(audio.analyze(wav));
            } catch (Throwable e) {
                sound.completeExceptionally(e);
            }
        });
        VisualAnalysis picture = VisualAnalyzer.analyze(video, VisualOptions.DEFAULT);
        return AnalysisAssembler.assemble(facts, picture, Optional.of(sound.join()), genres);
    }

    /** The picture pass alone, to tell how the two passes share the cores. */
    static VisualAnalysis picture(Path video) {
        return VisualAnalyzer.analyze(video, VisualOptions.DEFAULT);
    }

    /** The sound pass alone. */
    AudioAnalysis sound(Path wav) {
        return audio.analyze(wav);
    }
}
