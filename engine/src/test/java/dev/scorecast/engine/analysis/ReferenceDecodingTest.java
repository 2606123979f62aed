package dev.scorecast.engine.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.media.FfmpegFrameSource;
import dev.scorecast.engine.media.GapScreen;
import dev.scorecast.engine.media.MediaLimits;
import dev.scorecast.engine.media.VideoFrame;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Decoding reference pictures only (issue 18): what is passed over, that a gap asked for is decoded
 * exactly as a full decode would, that a cut on a passed-over picture is still found on its frame,
 * and that the motion curve stays close to the full decode's.
 */
class ReferenceDecodingTest {
    @TempDir
    static Path dir;
    /** testsrc2 then mandelbrot, H.264 with B-frames, keyframes every 30: a cut at frame 46. */
    private static Path cutClip;

    @BeforeAll
    static void makeClip() {
        cutClip = cutAt(46);
    }

    private static Path cutAt(int frame) {
        return FfmpegCli.ffmpeg(
                dir.resolve("cut-" + frame + ".mp4"),
                List.of(
                        "-f",
                        "lavfi",
                        "-i",
                        "testsrc2=s=320x180:r=30",
                        "-f",
                        "lavfi",
                        "-i",
                        "mandelbrot=s=320x180:r=30",
                        "-filter_complex",
                        "[0:v]trim=end_frame=" + frame + ",setpts=PTS-STARTPTS[a];[1:v]trim=end_frame=50,"
                                + "setpts=PTS-STARTPTS[b];[a][b]concat=n=2:v=1:a=0,format=yuv420p[v]",
                        "-map",
                        "[v]",
                        "-c:v",
                        "libx264",
                        "-preset",
                        "veryfast",
                        "-g",
                        "30"));
    }

    @Test
    void nonReferencePicturesArePassedOverAndCounted() {
        List<Long> all = indices(null);
        List<Long> references = new ArrayList<>();
        long passedOver;
        try (FfmpegFrameSource source = open((before, after, undecoded) -> false)) {
            VideoFrame frame = new VideoFrame(source.width(), source.height());
            while (source.read(frame)) {
                references.add(frame.index());
            }
            passedOver = source.framesPassedOver();
            assertEquals(0, source.gapsDecoded());
        }
        assertEquals(96, all.size());
        assertTrue(
                references.size() < 80, "decoded " + references.size() + " of 96: x264 writes non-reference B-frames");
        assertEquals(96, references.size() + passedOver, "every picture is either decoded or counted as passed over");
        assertTrue(all.containsAll(references), "indices are the pictures' places in the whole video");
    }

    @Test
    void everyGapAskedForIsDecodedAsInAFullDecode() {
        List<byte[]> full = pictures(null);
        List<byte[]> filled = new ArrayList<>();
        try (FfmpegFrameSource source = open((before, after, undecoded) -> true)) {
            VideoFrame frame = new VideoFrame(source.width(), source.height());
            long expected = 0;
            while (source.read(frame)) {
                assertEquals(expected++, frame.index());
                filled.add(frame.rgb().clone());
            }
            assertTrue(source.gapsDecoded() > 0);
            assertEquals(0, source.framesPassedOver());
        }
        assertEquals(full.size(), filled.size());
        for (int i = 0; i < full.size(); i++) {
            assertArrayEquals(full.get(i), filled.get(i), "picture " + i);
        }
    }

    @Test
    void aCutOnAnyFrameIsFoundOnItsFrame() {
        // Around a keyframe and inside mini-GOPs, so the cut lands on reference and non-reference pictures alike.
        for (int frame : new int[] {44, 45, 46, 47, 61, 62, 63}) {
            Path clip = frame == 46 ? cutClip : cutAt(frame);
            VisualAnalysis result = VisualAnalyzer.analyze(clip, VisualOptions.DEFAULT);
            assertEquals(
                    List.of((long) frame),
                    result.cuts().stream().map(Cut::frame).toList(),
                    "cut at frame " + frame);
            assertEquals(frame + 50, result.framesDecoded());
        }
    }

    @Test
    void theMotionCurveStaysCloseToTheFullDecodes() {
        // A pan, a zoom and churning texture: motion that grows with distance and motion that does not.
        Path clip = FfmpegCli.ffmpeg(
                dir.resolve("motion.mp4"),
                List.of(
                        "-f",
                        "lavfi",
                        "-i",
                        "testsrc2=s=640x360:r=30,crop=320:180:x='t*120':y=90,trim=duration=3",
                        "-f",
                        "lavfi",
                        "-i",
                        "life=s=320x180:r=30:seed=3:mold=10:ratio=0.5,trim=duration=3",
                        "-f",
                        "lavfi",
                        "-i",
                        "mandelbrot=s=320x180:r=30,trim=duration=3",
                        "-filter_complex",
                        "[0:v][1:v][2:v]concat=n=3:v=1:a=0,format=yuv420p[v]",
                        "-map",
                        "[v]",
                        "-c:v",
                        "libx264",
                        "-preset",
                        "veryfast",
                        "-g",
                        "60"));
        double[] full = VisualAnalyzer.analyze(clip, VisualOptions.DEFAULT.withEveryPicture(true))
                .motion();
        double[] subset = VisualAnalyzer.analyze(clip, VisualOptions.DEFAULT).motion();
        assertEquals(full.length, subset.length);
        double sum = 0;
        for (int i = 0; i < full.length; i++) {
            sum += Math.abs(full[i] - subset[i]);
        }
        double mean = sum / full.length;
        for (int seg = 0; seg < 3; seg++) {
            double f = 0, r = 0;
            for (int i = seg * 30; i < Math.min(full.length, seg * 30 + 30); i++) {
                f += full[i];
                r += subset[i];
            }
            System.out.printf("segment %d: full %.3f, references %.3f%n", seg, f / 30, r / 30);
        }
        // x264's veryfast lets the picture pass skip every B picture, so pairs lie up to four pictures
        // apart. The motion measure of issue 26 reads how quickly the change completes from two
        // distances counted in frames, so it does not depend on the spacing in principle; in
        // practice the segment means differ by 0.03 on the pan (0.44 full, 0.41 from references),
        // 0.10 on the churning texture (0.66, 0.56) and 0.02 on the zoom; under 0.1 a hop over the
        // clip on 2026-11-27 (0.054 with the difference measure before it, which could not rank speeds).
        assertTrue(mean < 0.1, "mean difference per hop " + mean);
    }

    private static FfmpegFrameSource open(GapScreen screen) {
        return FfmpegFrameSource.open(cutClip, MediaLimits.DEFAULT, FfmpegFrameSource.DEFAULT_LONG_SIDE_PIXELS, screen);
    }

    private static List<Long> indices(GapScreen screen) {
        List<Long> out = new ArrayList<>();
        try (FfmpegFrameSource source = open(screen)) {
            VideoFrame frame = new VideoFrame(source.width(), source.height());
            while (source.read(frame)) {
                out.add(frame.index());
            }
        }
        return out;
    }

    private static List<byte[]> pictures(GapScreen screen) {
        List<byte[]> out = new ArrayList<>();
        try (FfmpegFrameSource source = open(screen)) {
            VideoFrame frame = new VideoFrame(source.width(), source.height());
            while (source.read(frame)) {
                out.add(frame.rgb().clone());
            }
        }
        return out;
    }
}
