package dev.scorecast.engine.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.analysis.AnalysisAssembler;
import dev.scorecast.engine.analysis.Scene;
import dev.scorecast.engine.analysis.VisualAnalysis;
import dev.scorecast.engine.analysis.VisualAnalyzer;
import dev.scorecast.engine.analysis.VisualOptions;
import dev.scorecast.engine.music.Composer;
import dev.scorecast.engine.music.Score;
import dev.scorecast.engine.plan.GenerationOptions;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.Planner;
import dev.scorecast.engine.plan.Section;
import dev.scorecast.engine.render.MixSettings;
import dev.scorecast.engine.render.Mixer;
import dev.scorecast.engine.render.Renderer;
import dev.scorecast.engine.render.SoundBank;
import dev.scorecast.engine.render.Stem;
import dev.scorecast.engine.style.GenreCatalog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26, the speed ladder: one moving picture (FFmpeg's testsrc2) at four speeds, still, 1/6,
 * normal and 5x, four 6 s scenes in shuffled order with a cut between each. The analysis must rank
 * the speeds, the plan must grade them into four levels, and the rendered music must follow in
 * loudness: each speed louder than the one below, the fast scene at least 6 dB over the still one,
 * and the still one calm but not empty (at most 18 dB under the loudest).
 */
class PictureFollowingTest {
    /** The scenes in time order and the speed rank of each: 0 still, 1 slow, 2 normal, 3 fast. */
    static final int[] SPEED = {2, 0, 3, 1};

    static final double SCENE = 6;
    static final Path BANK = Path.of("/usr/share/sounds/sf2/FluidR3_GM.sf2");

    @TempDir
    static Path dir;

    static Path ladder;
    static VisualAnalysis visual;

    @BeforeAll
    static void makeTheLadder() throws Exception {
        ladder = dir.resolve("ladder.mp4");
        // testsrc2 drawn at 30, 180 (1/6 speed) or 6 (5x) pictures a second of its own clock, shown at 30;
        // the still scene is its first picture held. Every second scene is hue-rotated, so each boundary is a cut.
        String graph = "[0:v]setpts=N/30/TB,trim=end_frame=180[a];"
                + "[1:v]trim=end_frame=1,loop=loop=179:size=1:start=0,setpts=N/30/TB,hue=h=90[b];"
                + "[2:v]setpts=N/30/TB,trim=end_frame=180[c];"
                + "[3:v]setpts=N/30/TB,trim=end_frame=180,hue=h=90[d];"
                + "[a][b][c][d]concat=n=4:v=1:a=0,format=yuv420p[v]";
        Process p = new ProcessBuilder(
                        "ffmpeg",
                        "-v",
                        "error",
                        "-y",
                        "-f",
                        "lavfi",
                        "-i",
                        "testsrc2=size=320x180:rate=30",
                        "-f",
                        "lavfi",
                        "-i",
                        "testsrc2=size=320x180:rate=30",
                        "-f",
                        "lavfi",
                        "-i",
                        "testsrc2=size=320x180:rate=6",
                        "-f",
                        "lavfi",
                        "-i",
                        "testsrc2=size=320x180:rate=180",
                        "-filter_complex",
                        graph,
                        "-map",
                        "[v]",
                        "-r",
                        "30",
                        "-c:v",
                        "libx264",
                        "-preset",
                        "veryfast",
                        "-g",
                        "60",
                        ladder.toString())
                .redirectErrorStream(true)
                .start();
        String log = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), log);
        visual = VisualAnalyzer.analyze(ladder, VisualOptions.DEFAULT);
    }

    @Test
    void motionRanksTheSpeedsAndTellsCameraAndFlickerApart() {
        List<Scene> scenes = visual.scenes();
        assertEquals(4, scenes.size(), "three cuts: " + visual.cuts());
        double[] bySpeed = new double[4];
        for (int i = 0; i < 4; i++) {
            Scene s = scenes.get(i);
            bySpeed[SPEED[i]] = s.motion();
            System.out.printf(
                    "scene %d (speed %d): motion %.3f camera %.3f subject %.3f flicker %.3f%n",
                    i, SPEED[i], s.motion(), s.cameraMotion(), s.subjectMotion(), s.flicker());
            assertTrue(s.cameraMotion() < 0.15, "the camera does not move: " + s);
            assertTrue(s.flicker() < 0.15, "the light does not change: " + s);
        }
        assertEquals(0, bySpeed[0], 0.02, "a still picture does not move");
        for (int k = 1; k < 4; k++) {
            assertTrue(
                    bySpeed[k] > bySpeed[k - 1] + 0.03,
                    "speed " + k + " reads above speed " + (k - 1) + ": " + Arrays.toString(bySpeed));
        }
    }

    // Tagged slow (bin/test --all): a plan rendered and measured per speed, 6 to 15 s; the motion ranking stays fast.
    @Test
    @Tag("slow")
    void thePlanGradesTheSpeedsAndTheMusicFollowsInLevel() throws Exception {
        var facts = new Analysis.VideoFacts(4 * SCENE, 320, 180, 30, (long) (4 * SCENE * 30), false, "h264", 0);
        Analysis analysis = AnalysisAssembler.assemble(facts, visual, Optional.empty(), GenreCatalog.builtIn());
        Plan plan = new Planner(GenreCatalog.builtIn())
                .plan(analysis, GenerationOptions.DEFAULT.withGenre("pop").withSeed(7L));
        double[] level = new double[4];
        for (int i = 0; i < 4; i++) {
            level[SPEED[i]] = meanLevel(plan, i * SCENE + 0.5, (i + 1) * SCENE - 0.5);
        }
        System.out.println("mean pattern level by speed: " + Arrays.toString(level));
        for (int k = 1; k < 4; k++) {
            assertTrue(
                    level[k] > level[k - 1],
                    "speed " + k + " plays a higher level than speed " + (k - 1) + ": " + Arrays.toString(level));
        }
        assertTrue(level[0] < 1 && level[3] > 2.5, "still calm, fast at the top: " + Arrays.toString(level));

        Score score = new Composer().compose(plan);
        double[] rms = new double[4];
        try (SoundBank bank = SoundBank.load(BANK)) {
            List<Stem> stems = new Renderer(bank).render(score.instrumental(), dir.resolve("stems"), f -> {});
            Path master = dir.resolve("master.wav");
            Mixer.master(stems, new MixSettings(Map.of(), Map.of(), -14, 0, Optional.empty(), -6), master);
            double[] power = SyncCheck.millisecondPower(master);
            for (int i = 0; i < 4; i++) {
                // Away from the cuts' accents and the fill before them.
                rms[SPEED[i]] = levelDb(power, i * SCENE + 0.5, (i + 1) * SCENE - 1.0);
            }
        }
        System.out.printf(
                "loudness by speed: still %.1f, slow %.1f, normal %.1f, fast %.1f dB%n",
                rms[0], rms[1], rms[2], rms[3]);
        for (int k = 1; k < 4; k++) {
            assertTrue(
                    rms[k] > rms[k - 1],
                    "speed " + k + " is louder than speed " + (k - 1) + ": " + Arrays.toString(rms));
        }
        assertTrue(rms[3] - rms[0] >= 6, "the fast scene at least 6 dB over the still one: " + Arrays.toString(rms));
        double loudest = Arrays.stream(rms).max().orElseThrow();
        assertTrue(loudest - rms[0] <= 18, "the still scene is calm, not silence: " + Arrays.toString(rms));
    }

    /** The mean pattern level of the bars that start in [from, to). */
    private static double meanLevel(Plan plan, double from, double to) {
        List<Integer> levels = new ArrayList<>();
        for (Section s : plan.sections()) {
            double bar = s.durationSeconds() / s.bars();
            for (int b = 0; b < s.bars(); b++) {
                double start = s.start() + b * bar;
                if (start >= from - bar / 2 && start < to) {
                    levels.add(Planner.level(s.intensityOfBar(b)));
                }
            }
        }
        return levels.stream().mapToInt(Integer::intValue).average().orElse(Double.NaN);
    }

    /** The mean power of the milliseconds in [from, to), in dB. */
    static double levelDb(double[] power, double from, double to) {
        int a = (int) Math.round(from * 1000);
        int b = Math.min(power.length, (int) Math.round(to * 1000));
        double sum = 0;
        for (int i = a; i < b; i++) {
            sum += power[i];
        }
        return 10 * Math.log10(sum / Math.max(1, b - a) + 1e-20);
    }
}
