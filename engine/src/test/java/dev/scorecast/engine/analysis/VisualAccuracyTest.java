package dev.scorecast.engine.analysis;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.analysis.Corpus.Clip;
import dev.scorecast.engine.analysis.Corpus.Truth;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the visual analysis over the {@link Corpus} and fails below the goals: hard-cut F1 of 0.95
 * at one frame, nothing reported inside a flash or a pan, every fade and dissolve found within
 * 0.25 s. Prints the accuracy table (copied into docs/ANALYSIS-ACCURACY.md) and writes it to
 * target/analysis-accuracy.md.
 *
 * <p>Clips are generated into a temporary directory on each run; set
 * {@code -Dscorecast.corpus.dir=DIR} to keep them between runs (a changed clip definition gets a
 * new file name, so stale clips are never reused).
 */
@Tag("slow")
class VisualAccuracyTest {
    static final double HARD_CUT_F1_GOAL = 0.95;
    static final double GRADUAL_GOAL = 1.0;

    @TempDir
    Path temp;

    @Test
    void meetsAccuracyGoals() throws Exception {
        Path dir = corpusDir();
        List<Clip> clips = Corpus.all();
        List<Path> files = generate(clips, dir);
        AccuracyScore score = new AccuracyScore();
        StringBuilder detail = new StringBuilder();
        for (int i = 0; i < clips.size(); i++) {
            Clip clip = clips.get(i);
            Path file = files.get(i);
            VisualAnalysis result = VisualAnalyzer.analyze(file, VisualOptions.DEFAULT);
            score.score(clip, resolve(clip, file), result.cuts());
            detail.append(String.format(
                    Locale.ROOT,
                    "%-30s %s%n",
                    clip.name(),
                    result.cuts().stream()
                            .map(c -> String.format(
                                    Locale.ROOT, "%s@%d(%.2fs)", c.kind().wire(), c.frame(), c.time()))
                            .toList()));
        }
        String table = score.table();
        System.out.println("Visual analysis accuracy over " + clips.size() + " clips:\n" + table);
        System.out.println(detail);
        score.problems().forEach(p -> System.out.println("  " + p));
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target", "analysis-accuracy.md"), table);

        assertAll(
                () -> assertTrue(clips.size() >= 20, "at least 20 clips"),
                () -> assertTrue(
                        score.hardCuts().f1() >= HARD_CUT_F1_GOAL,
                        "hard-cut F1 " + score.hardCuts().f1() + " below " + HARD_CUT_F1_GOAL + ": "
                                + score.problems()),
                () -> assertEquals(
                        0, score.quietViolations(), "transitions inside flashes or pans: " + score.problems()),
                () -> assertTrue(
                        score.fades().recall() >= GRADUAL_GOAL && score.fades().precision() >= GRADUAL_GOAL,
                        "fades: " + score.problems()),
                () -> assertTrue(
                        score.dissolves().recall() >= GRADUAL_GOAL
                                && score.dissolves().precision() >= GRADUAL_GOAL,
                        "dissolves: " + score.problems()));
    }

    private Path corpusDir() throws IOException {
        String kept = System.getProperty("scorecast.corpus.dir");
        return kept == null || kept.isBlank() ? temp : Files.createDirectories(Path.of(kept));
    }

    /** Makes the clips two at a time (one per core); most generators are single-threaded. */
    private static List<Path> generate(List<Clip> clips, Path dir) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<Path>> made = new ArrayList<>();
            for (Clip clip : clips) {
                made.add(pool.submit(() -> {
                    Path file = dir.resolve(
                            clip.name() + "-" + fingerprint(clip) + (clip.variableRate() ? ".mkv" : ".mp4"));
                    return Files.exists(file) ? file : FfmpegCli.ffmpeg(file, clip.ffmpegArgs());
                }));
            }
            List<Path> files = new ArrayList<>();
            for (Future<Path> f : made) {
                files.add(f.get());
            }
            return files;
        } finally {
            pool.shutdownNow();
        }
    }

    private static String fingerprint(Clip clip) {
        return HexFormat.of()
                .toHexDigits(String.join("\u0000", clip.ffmpegArgs()).hashCode());
    }

    /** Fills in the frame of each hard cut given by time (variable-rate clips), from ffprobe's frame times. */
    private static List<Truth> resolve(Clip clip, Path file) {
        if (clip.truth().stream().noneMatch(t -> t.kind() == CutKind.CUT && t.frame() < 0)) {
            return clip.truth();
        }
        List<Double> times = FfmpegCli.frameTimes(file);
        List<Truth> out = new ArrayList<>();
        for (Truth t : clip.truth()) {
            if (t.kind() == CutKind.CUT && t.frame() < 0) {
                long frame = 0;
                while (frame < times.size() && times.get((int) frame) < t.timeSeconds() - 1e-3) {
                    frame++;
                }
                out.add(new Truth(t.kind(), frame, times.get((int) frame), t.startSeconds(), t.endSeconds()));
            } else {
                out.add(t);
            }
        }
        return out;
    }
}
