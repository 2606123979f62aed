package dev.scorecast.server.cli;

import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.analysis.Cut;
import dev.scorecast.engine.conform.ConformedScore;
import dev.scorecast.engine.conform.Conformer;
import dev.scorecast.engine.conform.ShotMatcher;
import dev.scorecast.engine.conform.Signatures;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.io.Json;
import dev.scorecast.engine.media.AudioTrack;
import dev.scorecast.engine.media.FfmpegFrameSource;
import dev.scorecast.engine.media.MediaLimits;
import dev.scorecast.engine.pipeline.Execution;
import dev.scorecast.engine.pipeline.Results;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.PlanJson;
import dev.scorecast.engine.plan.PlanValidator;
import dev.scorecast.engine.render.SoundBank;
import dev.scorecast.engine.style.GenreCatalog;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code scorecast conform OLD-outputs/ NEW.mp4 -o NEW-scored.mp4} (issue 27): the outputs of an
 * earlier {@code score} (its plan.json, analysis.json and video.mp4) and a re-cut of that video;
 * scores the re-cut keeping the music of the shots it kept, with no server. Every output lands in
 * {@code NEW-scored-outputs/} beside the video, as for {@code score}.
 */
final class ConformCommand {
    private ConformCommand() {}

    static void run(Path oldOutputs, Path video, Path output, Path soundFont, PrintStream out) {
        for (String name : List.of(Execution.PLAN, Execution.ANALYSIS, Execution.VIDEO)) {
            if (!Files.isRegularFile(oldOutputs.resolve(name))) {
                throw new InvalidParameter(
                        "OLD-outputs",
                        oldOutputs + " has no " + name + "; give the -outputs directory an earlier"
                                + " `scorecast score` (or conform) wrote beside its video");
            }
        }
        Path work = AnalyseCommand.tempDirectory();
        try {
            Plan old = PlanJson.parse(Files.readString(oldOutputs.resolve(Execution.PLAN)));
            Analysis oldAnalysis = Json.mapper()
                    .readValue(oldOutputs.resolve(Execution.ANALYSIS).toFile(), Analysis.class);
            AnalyseCommand.Analysed analysed = AnalyseCommand.analyse(video, work);
            Analysis analysis = analysed.analysis();
            var oldShots =
                    ShotMatcher.shots(cuts(oldAnalysis), oldAnalysis.video().duration());
            var matches = ShotMatcher.match(
                    oldShots,
                    signatures(oldOutputs.resolve(Execution.VIDEO)),
                    ShotMatcher.shots(cuts(analysis), analysis.video().duration()),
                    signatures(video));
            GenreCatalog genres = GenreCatalog.builtIn();
            var conformed = Conformer.conform(
                    old, oldShots, matches, cuts(analysis), analysis.video().duration());
            Plan plan = PlanValidator.validate(
                    conformed.plan().withId("plan_cli_conform"), analysed.info().duration(), genres);
            for (Conformer.ConformSpan span : conformed.spans()) {
                out.printf(
                        Locale.ROOT,
                        "%-8s old %s new %s%n",
                        span.kind(),
                        range(span.oldStart(), span.oldEnd()),
                        range(span.newStart(), span.newEnd()));
            }
            for (ConformedScore.Bridge b : ConformedScore.bridges(plan)) {
                if (!b.onTheBeat()) {
                    out.printf(
                            Locale.ROOT,
                            "transition at the cut %.3f: the music before stops on its beat at %.3f, the music after"
                                    + " comes in on its beat at %.3f (%d beat%s at %.1f bpm)%n",
                            b.cut(),
                            b.from(),
                            b.to(),
                            b.beats(),
                            b.beats() == 1 ? "" : "s",
                            b.tempo());
                }
            }
            String name = output.getFileName().toString();
            Path outputs = output.resolveSibling(name.replaceFirst("\\.[^.]+$", "") + "-outputs");
            Results results;
            try (SoundBank bank = SoundBank.load(soundFont)) {
                var inputs = new Execution.Inputs(
                        video,
                        analysed.audio().map(AudioTrack::wav),
                        analysis,
                        plan,
                        video.getFileName().toString().replaceFirst("\\.[^.]{1,8}$", ""));
                results = new Execution(bank).run(inputs, outputs, Map.of(), (stage, fraction) -> {});
            }
            Files.copy(outputs.resolve(Execution.VIDEO), output, StandardCopyOption.REPLACE_EXISTING);
            out.printf(
                    Locale.ROOT,
                    "%s: %d sections, %d keeping earlier music; accents heard within a frame: %d of %d%n",
                    output,
                    plan.sections().size(),
                    plan.sections().stream().filter(s -> s.origin() != null).count(),
                    results.sync().withinFrame(),
                    results.sync().accents());
            out.println("other outputs: " + outputs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            AnalyseCommand.deleteQuietly(work);
        }
    }

    private static List<Double> cuts(Analysis analysis) {
        return analysis.cuts().stream().map(Cut::time).toList();
    }

    private static Signatures signatures(Path video) {
        try (FfmpegFrameSource source = FfmpegFrameSource.open(video, MediaLimits.DEFAULT, 48)) {
            return Signatures.read(source);
        }
    }

    private static String range(Double from, Double to) {
        return from == null ? "-" : String.format(Locale.ROOT, "%.3f-%.3f", from, to);
    }
}
