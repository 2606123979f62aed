package dev.scorecast.server.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.analysis.Analysis.VideoFacts;
import dev.scorecast.engine.analysis.TimelinePlot;
import dev.scorecast.engine.media.AudioExtractor;
import dev.scorecast.engine.media.AudioTrack;
import dev.scorecast.engine.media.MediaLimits;
import dev.scorecast.engine.media.VideoInfo;
import dev.scorecast.engine.media.VideoProbe;
import dev.scorecast.server.analysis.EngineAnalysis;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** {@code scorecast analyse VIDEO [--timeline OUT.png]}: the server's analysis, with no server. */
final class AnalyseCommand {
    private AnalyseCommand() {}

    static void run(Path video, Path timeline, PrintStream out) {
        VideoInfo info = VideoProbe.probe(video, MediaLimits.DEFAULT);
        Path work = null;
        try {
            work = Files.createTempDirectory("scorecast-analyse");
            Optional<AudioTrack> audio = info.hasAudio() ? AudioExtractor.extractWav(video, work.resolve("audio.wav")) : Optional.empty();
            var facts = new VideoFacts(info.duration(), info.width(), info.height(), info.fps(), info.frames(), audio.isPresent(),
                    info.videoCodec(), info.rotation());
            Analysis analysis = EngineAnalysis.create().analyze(video, audio.map(AudioTrack::wav), facts, fraction -> { });
            ObjectMapper mapper = new ObjectMapper()
                    .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                    .enable(SerializationFeature.INDENT_OUTPUT);
            out.println(mapper.writeValueAsString(analysis));
            if (timeline != null) {
                TimelinePlot.write(analysis, timeline);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (work != null) {
                try (var files = Files.walk(work)) {
                    files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                } catch (IOException ignored) {
                    // A temporary directory left behind is harmless.
                }
            }
        }
    }
}
