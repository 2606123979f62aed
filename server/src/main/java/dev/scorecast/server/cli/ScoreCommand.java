package dev.scorecast.server.cli;

import dev.scorecast.engine.core.Ticker;
import dev.scorecast.engine.media.AudioTrack;
import dev.scorecast.engine.pipeline.Execution;
import dev.scorecast.engine.pipeline.Results;
import dev.scorecast.engine.plan.GenerationOptions;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.PlanValidator;
import dev.scorecast.engine.plan.Planner;
import dev.scorecast.engine.render.SoundBank;
import dev.scorecast.engine.style.GenreCatalog;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Map;

/**
 * {@code scorecast score IN -o OUT.mp4 [--genre G] [--seed N] [--vocals] [--voiceover SCRIPT]}: the whole pipeline with no server,
 * analysis to muxed video, printing each stage's time. Every other output (audio, stems, MIDI,
 * plan, results) lands in {@code OUT-outputs/} beside the video.
 */
final class ScoreCommand {
    private ScoreCommand() {}

    static void run(Path video, Path output, GenerationOptions options, Path soundFont, PrintStream out) {
        Path work = AnalyseCommand.tempDirectory();
        try {
            long t0 = Ticker.SYSTEM.nanos();
            AnalyseCommand.Analysed analysed = AnalyseCommand.analyse(video, work);
            double analysisSeconds = (Ticker.SYSTEM.nanos() - t0) / 1e9;
            long t1 = Ticker.SYSTEM.nanos();
            GenreCatalog genres = GenreCatalog.builtIn();
            Plan plan = new Planner(genres).plan(analysed.analysis(), options).withId("plan_cli");
            PlanValidator.validate(plan, analysed.info().duration(), genres);
            double planSeconds = (Ticker.SYSTEM.nanos() - t1) / 1e9;
            String name = output.getFileName().toString();
            Path outputs = output.resolveSibling(name.replaceFirst("\\.[^.]+$", "") + "-outputs");
            Results results;
            try (SoundBank bank = SoundBank.load(soundFont)) {
                var inputs = new Execution.Inputs(
                        video,
                        analysed.audio().map(AudioTrack::wav),
                        analysed.analysis(),
                        plan,
                        video.getFileName().toString().replaceFirst("\\.[^.]{1,8}$", ""));
                results = new Execution(bank).run(inputs, outputs, Map.of(), (stage, fraction) -> {});
            }
            Files.copy(outputs.resolve(Execution.VIDEO), output, StandardCopyOption.REPLACE_EXISTING);
            out.printf(
                    Locale.ROOT,
                    "%s: %d sections of %s, seed %d%n",
                    output,
                    plan.sections().size(),
                    plan.genre(),
                    plan.seed());
            out.printf(Locale.ROOT, "stage seconds: analysis %.2f, plan %.3f", analysisSeconds, planSeconds);
            results.stageSeconds().forEach((stage, seconds) -> out.printf(Locale.ROOT, ", %s %.2f", stage, seconds));
            out.println();
            out.printf(
                    Locale.ROOT,
                    "loudness %.1f LUFS, true peak %.1f dBTP; accents heard within a frame: %d of %d%n",
                    results.loudness().integratedLufs(),
                    results.loudness().truePeakDbtp(),
                    results.sync().withinFrame(),
                    results.sync().accents());
            out.println("other outputs: " + outputs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            AnalyseCommand.deleteQuietly(work);
        }
    }
}
