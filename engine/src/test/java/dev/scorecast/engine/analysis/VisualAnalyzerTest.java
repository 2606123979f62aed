package dev.scorecast.engine.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.error.UnsupportedMedia;
import dev.scorecast.engine.media.FfmpegFrameSource;
import dev.scorecast.engine.media.FrameSource;
import dev.scorecast.engine.media.MediaLimits;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The awkward files of issue 3: turned phone video, damaged frames, very short clips, non-video. */
class VisualAnalyzerTest {
    @TempDir
    static Path dir;
    /** testsrc2 | mandelbrot | smptebars, 2 s each at 30 fps: cuts at frames 60 and 120. */
    private static Path threeShots;

    @BeforeAll
    static void makeClip() {
        threeShots = FfmpegCli.ffmpeg(
                dir.resolve("three-shots.mp4"),
                List.of(
                        "-f",
                        "lavfi",
                        "-t",
                        "2",
                        "-i",
                        "testsrc2=s=320x180:r=30",
                        "-f",
                        "lavfi",
                        "-t",
                        "2",
                        "-i",
                        "mandelbrot=s=320x180:r=30",
                        "-f",
                        "lavfi",
                        "-t",
                        "2",
                        "-i",
                        "smptebars=s=320x180:r=30",
                        "-filter_complex",
                        "[0:v][1:v][2:v]concat=n=3:v=1:a=0,format=yuv420p[v]",
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
    void cutsOfATurnedPhoneVideoAreTheSameAndThePictureIsUpright() {
        // The mov muxer turns the legacy "rotate" tag into a display matrix (a quarter turn).
        Path turned = FfmpegCli.ffmpeg(
                dir.resolve("turned.mp4"),
                List.of("-i", threeShots.toString(), "-c", "copy", "-metadata:s:v:0", "rotate=90"));
        try (FrameSource source =
                FfmpegFrameSource.open(turned, MediaLimits.DEFAULT, FfmpegFrameSource.DEFAULT_LONG_SIDE_PIXELS)) {
            assertTrue(
                    source.height() > source.width(), source.width() + "x" + source.height() + " should be portrait");
        }
        assertEquals(List.of(60L, 120L), hardCutFrames(VisualAnalyzer.analyze(turned, VisualOptions.DEFAULT)));
        assertEquals(List.of(60L, 120L), hardCutFrames(VisualAnalyzer.analyze(threeShots, VisualOptions.DEFAULT)));
    }

    @Test
    void damagedFramesMidStreamAreSkippedAndReported() throws IOException {
        Path damaged = Files.copy(threeShots, dir.resolve("damaged.mp4"));
        List<long[]> packets = videoPackets(threeShots);
        Random random = new Random(5);
        try (RandomAccessFile file = new RandomAccessFile(damaged.toFile(), "rw")) {
            // Frames 85 to 94: inside the second shot, away from the cuts, including its keyframe at 90.
            for (long[] packet : packets.subList(85, 95)) {
                byte[] garbage = new byte[(int) packet[1]];
                random.nextBytes(garbage);
                file.seek(packet[0]);
                file.write(garbage);
            }
        }
        VisualAnalysis result = VisualAnalyzer.analyze(damaged, VisualOptions.DEFAULT);
        assertTrue(result.framesSkipped() > 0, "skipped " + result.framesSkipped());
        assertFalse(result.warnings().isEmpty());
        // Pictures that refer to the damaged keyframe are lost with it, up to the next keyframe.
        assertTrue(result.framesDecoded() >= 140, "decoded " + result.framesDecoded());
        // Times, not frame numbers: pictures lost with the keyframe are not counted (see docs/ANALYSIS.md).
        assertEquals(
                List.of(2.0, 4.0),
                result.cuts().stream()
                        .filter(c -> c.kind() == CutKind.CUT)
                        .map(Cut::time)
                        .toList());
    }

    @Test
    void aTwoSecondClipHasOneSceneAndACurveToItsEnd() {
        Path shortClip = FfmpegCli.ffmpeg(
                dir.resolve("short.mp4"),
                List.of(
                        "-f",
                        "lavfi",
                        "-t",
                        "2",
                        "-i",
                        "testsrc2=s=320x180:r=30",
                        "-c:v",
                        "libx264",
                        "-pix_fmt",
                        "yuv420p"));
        VisualAnalysis result = VisualAnalyzer.analyze(shortClip, VisualOptions.DEFAULT);
        assertTrue(result.cuts().isEmpty(), "cuts " + result.cuts());
        assertEquals(1, result.scenes().size());
        assertEquals(20, result.motion().length);
        assertEquals(60, result.framesDecoded());
    }

    @Test
    void aFileThatIsNotAVideoIsUnsupportedMedia() throws IOException {
        Path text = Files.writeString(dir.resolve("notes.mp4"), "not a video at all\n".repeat(100));
        UnsupportedMedia e =
                assertThrows(UnsupportedMedia.class, () -> VisualAnalyzer.analyze(text, VisualOptions.DEFAULT));
        assertFalse(e.getMessage().isBlank());
    }

    private static List<Long> hardCutFrames(VisualAnalysis result) {
        return result.cuts().stream()
                .filter(c -> c.kind() == CutKind.CUT)
                .map(Cut::frame)
                .toList();
    }

    /** File position and size of every video packet, in decoding order. */
    private static List<long[]> videoPackets(Path video) {
        String csv = FfmpegCli.run(List.of(
                "ffprobe",
                "-v",
                "error",
                "-select_streams",
                "v:0",
                "-show_entries",
                "packet=pos,size",
                "-of",
                "csv=p=0",
                video.toString()));
        List<long[]> packets = new ArrayList<>();
        for (String line : csv.split("\n")) {
            String[] parts = line.trim().split(",");
            if (parts.length == 2) {
                packets.add(new long[] {Long.parseLong(parts[1]), Long.parseLong(parts[0])});
            }
        }
        return packets;
    }
}
