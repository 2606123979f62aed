package dev.scorecast.server.cli;

import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.analysis.Analysis.VideoFacts;
import dev.scorecast.engine.analysis.TimelinePlot;
import dev.scorecast.engine.io.Directories;
import dev.scorecast.engine.io.Json;
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

    /** A video probed, its sound extracted into a work directory, and analysed as the server does. */
    record Analysed(VideoInfo info, Optional<AudioTrack> audio, Analysis analysis) {}

    static void run(Path video, Path timeline, PrintStream out) {
        Path work = tempDirectory();
        try {
            Analysis analysis = analyse(video, work).analysis();
            out.println(Json.indented().writeValueAsString(analysis));
            if (timeline != null) {
                TimelinePlot.write(analysis, timeline);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            deleteQuietly(work);
        }
    }

    static Analysed analyse(Path video, Path work) {
        VideoInfo info = VideoProbe.probe(video, MediaLimits.DEFAULT);
        Optional<AudioTrack> audio =
                info.hasAudio() ? AudioExtractor.extractWav(video, work.resolve("audio.wav")) : Optional.empty();
        var facts = new VideoFacts(
                info.duration(),
                info.width(),
                info.height(),
                info.fps(),
                info.frames(),
                audio.isPresent(),
                info.videoCodec(),
                info.rotation());
        Analysis analysis = EngineAnalysis.create().analyze(video, audio.map(AudioTrack::wav), facts, fraction -> {});
        return new Analysed(info, audio, analysis);
    }

    static Path tempDirectory() {
        try {
            return Files.createTempDirectory("scorecast-cli");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteQuietly(Path dir) {
        try {
            Directories.deleteTree(dir);
        } catch (UncheckedIOException ignored) {
            // A temporary directory left behind is harmless.
        }
    }
}
