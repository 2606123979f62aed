package dev.scorecast.engine.conform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.Commands;
import dev.scorecast.engine.conform.Conformer.ConformSpan;
import dev.scorecast.engine.conform.ShotMatcher.Match;
import dev.scorecast.engine.conform.ShotMatcher.Shot;
import dev.scorecast.engine.media.FfmpegFrameSource;
import dev.scorecast.engine.media.MediaLimits;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shot matching on real encoded video (issue 27's failures on real footage, docs/EDITING.md "Real
 * footage"), built here with FFmpeg from its own sources, each shot cut from 30 s of "footage" and
 * every cut re-encoded as an editing program exports it:
 * <ul>
 * <li>a plaza: a fixed camera (SMPTE bars) and two walkers crossing it at their own times, so the
 * plaza at 20 s is other footage of the same scene, whose pictures are as close as a re-encode's;
 * <li>a tree: a fixed camera on a still picture (a Mandelbrot frame) whose only motion is a patch of
 * leaves (a chaotic cellular automaton at 15 fps, 2 % of the picture): every offset of the shot looks
 * alike within 0.0003;
 * <li>busy (testsrc2) and zoom (Mandelbrot zooming): ordinary moving shots.
 * </ul>
 * The first cut is plaza 0-5 s, tree 2-8 s, busy 0-2.267 s (68 frames, so the next cut at 13.267 s is
 * on no frame of 25 fps video) and zoom 0-3 s, at 30 fps and 320x180.
 */
class ShotMatcherFootageTest {
    static final double FPS = 30;

    @TempDir
    static Path dir;

    static Signatures first;
    static List<Shot> firstShots;

    @BeforeAll
    static void footage() {
        ffmpeg(
                "-f lavfi -i smptebars=s=320x180:r=30:d=30 -f lavfi -i color=c=black:s=10x28:r=30:d=30"
                        + " -f lavfi -i color=c=white:s=12x30:r=30:d=30 -filter_complex"
                        + " [0][1]overlay=x='-20+t*12':y=110[a];[a][2]overlay=x='330-(t-12)*18':y=60,format=yuv420p"
                        + " -c:v libx264 -preset ultrafast -crf 18",
                "plaza.mp4");
        ffmpeg(
                "-f lavfi -i mandelbrot=s=320x180:r=30 -f lavfi -i cellauto=s=40x24:rule=30:r=15:random_seed=5"
                        + " -filter_complex [0]trim=end_frame=1,loop=loop=-1:size=1,setpts=N/30/TB[bg];[1]fps=30[l];"
                        + "[bg][l]overlay=x=150:y=80,format=yuv420p -t 30 -c:v libx264 -preset ultrafast -crf 18",
                "tree.mp4");
        ffmpeg("-f lavfi -i testsrc2=s=320x180:r=30:d=10 -c:v libx264 -preset ultrafast -crf 18", "busy.mp4");
        ffmpeg("-f lavfi -i mandelbrot=s=320x180:r=30 -t 10 -c:v libx264 -preset ultrafast -crf 18", "zoom.mp4");
        first = signatures(cut("first.mp4", "plaza 0 5", "tree 2 6", "busy 0 2.26667", "zoom 0 3"));
        firstShots = ShotMatcher.shots(List.of(5.0, 11.0, 13 + 8 / FPS), 16 + 8 / FPS);
    }

    @Test
    void aStillTreeTrimmedAtItsHeadIsFoundByItsLeavesNotTakenForATailTrim() {
        Signatures trim = signatures(cut("trim.mp4", "plaza 0 5", "tree 3.4 4.6", "busy 0 2.26667", "zoom 0 3"));
        List<Shot> shots = ShotMatcher.shots(List.of(5.0, 9.6, 11.6 + 8 / FPS), 14.6 + 8 / FPS);
        List<Match> matches = ShotMatcher.match(firstShots, first, shots, trim);
        Match tree = matches.get(1);
        assertEquals(1, tree.old().index());
        // The first cut showed tree 3.4 s at 6.4 s; the re-cut shows it at 5.0 s. Its pictures alone fit every
        // offset as well (within 0.0003), and a still picture keeps its head: shift 0, the music 1.4 s early.
        assertEquals(-1.4, tree.shift(), 0.5 / FPS, () -> "matched " + tree);
        assertTrue(tree.motion() >= ShotMatcher.MOTION_MATCH, () -> "motion " + tree.motion());
        List<ConformSpan> spans = Conformer.report(firstShots, matches);
        assertTrue(spans.contains(new ConformSpan("trimmed", 6.4, 11.0, 5.0, 9.6)), () -> "spans " + spans);
        assertTrue(spans.contains(new ConformSpan("removed", 5.0, 6.4, null, null)), () -> "spans " + spans);
    }

    @Test
    void otherFootageOfTheSamePlazaIsANewShot() {
        Signatures insert =
                signatures(cut("insert.mp4", "plaza 0 5", "tree 2 6", "plaza 20 4", "busy 0 2.26667", "zoom 0 3"));
        List<Shot> shots = ShotMatcher.shots(List.of(5.0, 11.0, 15.0, 17 + 8 / FPS), 20 + 8 / FPS);
        List<Match> matches = ShotMatcher.match(firstShots, first, shots, insert);
        Match inserted = matches.get(2);
        // Its pictures are as close to the old plaza's as a re-encode's; its walkers are elsewhere.
        assertTrue(inserted.distance() < ShotMatcher.MATCH_DISTANCE, () -> "distance " + inserted.distance());
        assertFalse(inserted.found(), () -> "matched " + inserted);
        for (int i : new int[] {0, 1, 3, 4}) {
            assertTrue(matches.get(i).found(), "shot " + i);
            assertEquals(i < 2 ? i : i - 1, matches.get(i).old().index());
            assertEquals(i < 2 ? 0 : 4, matches.get(i).shift(), 1e-9);
        }
        List<String> kinds = Conformer.report(firstShots, matches).stream()
                .map(ConformSpan::kind)
                .toList();
        assertEquals(List.of("kept", "kept", "new", "kept", "kept"), kinds);
    }

    @Test
    void aCutMovedByLessThanAFrameAtAnotherFrameRateIsTheSameCut() {
        // The whole first cut at 25 fps and 480x270: its cut at 13.267 s lands on a 25 fps frame 13 or 27 ms off.
        Path fps = ffmpeg(
                "-i " + dir.resolve("first.mp4") + " -vf fps=25,scale=480:270 -c:v libx264 -preset ultrafast -crf 23",
                "fps.mp4");
        Signatures now = signatures(fps);
        double moved = cutNear(now, 13 + 8 / FPS);
        assertTrue(Math.abs(moved - (13 + 8 / FPS)) > 0.005, () -> "the cut did not move: " + moved);
        List<Shot> shots = ShotMatcher.shots(List.of(cutNear(now, 5), cutNear(now, 11), moved), 16.28);
        List<Match> matches = ShotMatcher.match(firstShots, first, shots, now);
        for (int i = 0; i < 4; i++) {
            assertEquals(i, matches.get(i).old().index());
        }
        assertEquals(matches.get(2).shift(), matches.get(3).shift(), 1e-9, "one stretch of the old cut's time");
        List<ConformSpan> spans = Conformer.report(firstShots, matches);
        assertEquals(
                List.of("kept", "kept", "kept", "kept"),
                spans.stream().map(ConformSpan::kind).toList(),
                () -> "spans " + spans);
    }

    /** The first frame of a new shot within 0.1 s of {@code near}: the largest change from the frame before. */
    static double cutNear(Signatures s, double near) {
        double best = -1;
        double at = Double.NaN;
        for (int i = 1; i < s.times().length; i++) {
            if (Math.abs(s.times()[i] - near) < 0.1) {
                double d = Signatures.distance(s.prints()[i - 1], s.prints()[i]);
                if (d > best) {
                    best = d;
                    at = s.times()[i];
                }
            }
        }
        return at;
    }

    /** A cut of {@code shots} ("footage start length"), joined frame for frame and encoded afresh. */
    static Path cut(String name, String... shots) {
        StringBuilder inputs = new StringBuilder();
        StringBuilder graph = new StringBuilder();
        for (int i = 0; i < shots.length; i++) {
            String[] s = shots[i].split(" ");
            inputs.append(" -i ").append(dir.resolve(s[0] + ".mp4"));
            graph.append("[%d]trim=start=%s:duration=%s,setpts=PTS-STARTPTS[v%d];".formatted(i, s[1], s[2], i));
        }
        for (int i = 0; i < shots.length; i++) {
            graph.append("[v").append(i).append(']');
        }
        graph.append("concat=n=").append(shots.length).append(":v=1:a=0,format=yuv420p[v]");
        return ffmpeg(inputs + " -filter_complex " + graph + " -map [v] -c:v libx264 -preset ultrafast -crf 20", name);
    }

    static Path ffmpeg(String args, String name) {
        Path out = dir.resolve(name);
        List<String> cmd = new ArrayList<>(List.of("ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y"));
        cmd.addAll(List.of(args.trim().split(" +")));
        cmd.add(out.toString());
        Commands.run(cmd, 300);
        return out;
    }

    /** Read as the conform reads them (ConformService: 48 pixels on the long side). */
    static Signatures signatures(Path video) {
        try (FfmpegFrameSource source = FfmpegFrameSource.open(video, MediaLimits.DEFAULT, 48)) {
            return Signatures.read(source);
        }
    }
}
