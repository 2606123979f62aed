package dev.scorecast.engine.media;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The segmented decode (issue 18) delivers exactly what one decoder delivers: the same pictures,
 * with the same indices, times and pixels, whether every gap is decoded or none, on closed and open
 * GOPs, with one worker or several; and closing it early leaves no worker behind.
 */
class SegmentedFrameSourceTest {
    private static final int MIN_SEGMENT = 40;

    @TempDir
    static Path dir;
    /** Ten seconds of three sources with cuts inside GOPs, B-frames, keyframes every 30 (closed GOPs). */
    private static Path closedGops;
    /** The same pictures with open GOPs: pictures before a keyframe in time may follow it in the file. */
    private static Path openGops;
    /** The closed-GOP clip cut at 1.5 s without re-encoding: an edit list hides the pictures before the cut. */
    private static Path trimmed;

    @BeforeAll
    static void makeClips() {
        String pictures = "-f lavfi -i testsrc2=s=320x180:r=30:d=4 -f lavfi -i mandelbrot=s=320x180:r=30 "
                + "-f lavfi -i life=s=320x180:r=30:mold=10:ratio=0.5:seed=7 -filter_complex "
                + "[1:v]trim=end_frame=107,setpts=PTS-STARTPTS[b];[2:v]trim=end_frame=73,setpts=PTS-STARTPTS[c];"
                + "[0:v][b][c]concat=n=3:v=1:a=0,format=yuv420p[v] -map [v] -c:v libx264 -preset veryfast -bf 3 ";
        closedGops = TestVideos.make(dir, "closed.mp4", pictures + "-x264-params keyint=30:min-keyint=30:scenecut=0");
        openGops = TestVideos.make(
                dir, "open.mp4", pictures + "-x264-params keyint=30:min-keyint=30:scenecut=0:open-gop=1");
        trimmed = TestVideos.make(dir, "trimmed.mp4", "-ss 1.5 -i " + closedGops + " -c copy");
    }

    @Test
    void theTimelineCutsAtKeyframes() {
        PacketTimeline timeline = PacketTimeline.read(closedGops, MediaLimits.DEFAULT, 100_000);
        assertEquals(300, timeline.pictures());
        List<PacketTimeline.Segment> segments = timeline.segments(MIN_SEGMENT);
        assertEquals(
                List.of(0L, 60L, 120L, 180L, 240L),
                segments.stream().map(PacketTimeline.Segment::firstIndex).toList());
        for (int i = 0; i + 1 < segments.size(); i++) {
            assertEquals(segments.get(i + 1).startPts(), segments.get(i).stopPts());
        }
    }

    @Test
    void everyPictureAsOneDecoderDeliversIt() {
        for (Path clip : List.of(closedGops, openGops, trimmed)) {
            List<Picture> one = readAll(FfmpegFrameSource.open(clip, MediaLimits.DEFAULT, 160));
            assertEquals(
                    clip == trimmed ? 255 : 300, one.size(), clip.getFileName().toString());
            for (int workers : new int[] {1, 2, 3}) {
                // A screen that asks for every gap: every picture is decoded.
                List<Picture> segmented = readAll(SegmentedFrameSource.open(
                        clip,
                        MediaLimits.DEFAULT,
                        160,
                        () -> (before, after, undecoded) -> true,
                        workers,
                        MIN_SEGMENT));
                assertSame(one, segmented, clip.getFileName() + ", " + workers + " workers");
            }
        }
    }

    @Test
    void referencePicturesOnlyAsOneDecoderDeliversThem() {
        // Matroska leaves the first packets' decoding times unset; its timeline guides segments all the same.
        Path matroska = TestVideos.make(dir, "closed.mkv", "-i " + closedGops + " -c copy");
        for (Path clip : List.of(closedGops, openGops, matroska)) {
            Supplier<GapScreen> never = () -> (before, after, undecoded) -> false;
            FfmpegFrameSource single = FfmpegFrameSource.open(clip, MediaLimits.DEFAULT, 160, never.get());
            // x264's veryfast P pictures refer to I and P pictures only, so every B picture is passed over.
            assertTrue(
                    BidirectionalCheck.passOverIsSafe(clip, MediaLimits.DEFAULT),
                    clip.getFileName().toString());
            single.passOverBidirectional(true);
            List<Picture> one = readAll(single);
            FrameSource source = SegmentedFrameSource.open(clip, MediaLimits.DEFAULT, 160, never, 2, MIN_SEGMENT);
            assertInstanceOf(SegmentedFrameSource.class, source);
            List<Picture> segmented = readAll(source);
            assertTrue(one.size() < 120, "x264 writes three B pictures in four: " + one.size() + " of 300 decoded");
            assertSame(one, segmented, clip.getFileName().toString());
            assertEquals(
                    300,
                    segmented.size() + source.framesPassedOver(),
                    "every picture decoded or counted as passed over");
        }
    }

    @Test
    void piecesOfDifferentEncodesJoinedInOneStreamPassOverNonReferencePicturesOnly() throws IOException {
        // A transport stream joined without re-encoding from an x264 veryfast piece and a medium one,
        // whose P pictures refer to B pictures: the first second alone would pass every B picture over.
        Path fast = TestVideos.make(
                dir,
                "fast.ts",
                "-f lavfi -i testsrc2=s=320x180:r=30:d=4 -pix_fmt yuv420p -c:v libx264 "
                        + "-preset veryfast -f mpegts");
        Path slow = TestVideos.make(
                dir,
                "slow.ts",
                "-f lavfi -i mandelbrot=s=320x180:r=30,trim=duration=4 -pix_fmt yuv420p "
                        + "-c:v libx264 -preset medium -f mpegts");
        Path list = Files.writeString(dir.resolve("pieces.txt"), "file '" + fast + "'\nfile '" + slow + "'\n");
        Path joined = TestVideos.make(dir, "joined.ts", "-f concat -safe 0 -i " + list + " -c copy");
        assertTrue(BidirectionalCheck.passOverIsSafe(joined, MediaLimits.DEFAULT));
        assertFalse(PacketTimeline.read(fast, MediaLimits.DEFAULT, 100_000).parametersChange());
        assertTrue(PacketTimeline.read(joined, MediaLimits.DEFAULT, 100_000).parametersChange());

        Supplier<GapScreen> never = () -> (before, after, undecoded) -> false;
        FfmpegFrameSource single = FfmpegFrameSource.open(joined, MediaLimits.DEFAULT, 160, never.get());
        single.passOverBidirectional(false);
        List<Picture> one = readAll(single);
        assertTrue(one.size() > 120, "non-reference pictures passed over only: " + one.size() + " of 240 decoded");
        assertSame(
                one,
                readAll(SegmentedFrameSource.open(joined, MediaLimits.DEFAULT, 160, never, 2, MIN_SEGMENT)),
                "joined.ts");
    }

    @Test
    void aTransportStreamIsCutAtItsKeyframesToo() {
        // No index: seeking by the keyframe's presentation time lands after it, on decoding times.
        Path stream = TestVideos.make(
                dir,
                "long.ts",
                "-f lavfi -i testsrc2=s=320x180:r=30:d=10 -pix_fmt yuv420p -c:v libx264 "
                        + "-preset veryfast -g 60 -f mpegts");
        Supplier<GapScreen> never = () -> (before, after, undecoded) -> false;
        FfmpegFrameSource single = FfmpegFrameSource.open(stream, MediaLimits.DEFAULT, 160, never.get());
        single.passOverBidirectional(true);
        List<Picture> one = readAll(single);
        FrameSource segmented = SegmentedFrameSource.open(stream, MediaLimits.DEFAULT, 160, never, 2, MIN_SEGMENT);
        assertInstanceOf(SegmentedFrameSource.class, segmented);
        List<Picture> pictures = readAll(segmented);
        assertSame(one, pictures, "long.ts");
        assertEquals(300, pictures.size() + segmented.framesPassedOver());
    }

    @Test
    void gapsAreDecodedAsInAFullDecodeInEveryContainer() {
        // A transport stream once lost every picture after its first gap: seeking back by a
        // presentation time lands on decoding times there, after the keyframe.
        Path stream = TestVideos.make(dir, "closed.ts", "-i " + closedGops + " -c copy -f mpegts");
        // Bursts of gaps in a row inside GOPs, and gaps alone.
        Supplier<GapScreen> bursts = () -> (before, after, undecoded) ->
                after.index() % 30 >= 12 && after.index() % 30 < 22 || after.index() % 45 == 7;
        for (Path clip : List.of(closedGops, openGops, trimmed, stream)) {
            Map<Long, Picture> full = new HashMap<>();
            readAll(FfmpegFrameSource.open(clip, MediaLimits.DEFAULT, 160)).forEach(p -> full.put(p.index(), p));
            FfmpegFrameSource single = FfmpegFrameSource.open(clip, MediaLimits.DEFAULT, 160, bursts.get());
            single.passOverBidirectional(true);
            List<Picture> one = readAll(single);
            assertTrue(single.gapsDecoded() > 15, clip.getFileName() + ": " + single.gapsDecoded() + " gaps");
            assertTrue(
                    single.gapSeeks() <= 11,
                    clip.getFileName() + ": a gap decoded from its keyframe at most once a GOP, not "
                            + single.gapSeeks() + " times for " + single.gapsDecoded() + " gaps");
            for (Picture picture : one) {
                Picture expected = full.get(picture.index());
                assertArrayEquals(expected.rgb(), picture.rgb(), clip.getFileName() + ", picture " + picture.index());
                assertEquals(
                        expected.seconds(), picture.seconds(), clip.getFileName() + ", picture " + picture.index());
            }
            for (int i = 1; i < one.size(); i++) {
                long index = one.get(i).index();
                if (index % 30 >= 12 && index % 30 < 22 || index % 45 == 7) {
                    assertEquals(
                            index - 1,
                            one.get(i - 1).index(),
                            clip.getFileName() + ": the gap before " + index + " was asked for");
                }
            }
            assertSame(
                    one,
                    readAll(SegmentedFrameSource.open(clip, MediaLimits.DEFAULT, 160, bursts, 2, MIN_SEGMENT)),
                    clip.getFileName().toString());
        }
    }

    @Test
    void aWorkerThatDiesFailsTheReaderInsteadOfLeavingItWaiting() {
        // As when the heap runs out in a worker: the error reaches the reader, which never waits for it.
        Supplier<GapScreen> dying = () -> (before, after, undecoded) -> {
            if (after.index() > 200) {
                throw new OutOfMemoryError("simulated");
            }
            return false;
        };
        OutOfMemoryError error = assertTimeoutPreemptively(
                Duration.ofSeconds(60),
                () -> assertThrows(
                        OutOfMemoryError.class,
                        () -> readAll(SegmentedFrameSource.open(
                                closedGops, MediaLimits.DEFAULT, 160, dying, 2, MIN_SEGMENT))));
        assertEquals("simulated", error.getMessage());
    }

    @Test
    void closingEarlyStopsEveryWorker() throws InterruptedException {
        for (int round = 0; round < 3; round++) {
            try (FrameSource source = SegmentedFrameSource.open(
                    closedGops, MediaLimits.DEFAULT, 160, () -> (before, after, undecoded) -> true, 3, MIN_SEGMENT)) {
                VideoFrame frame = new VideoFrame(source.width(), source.height());
                for (int i = 0; i < 10; i++) {
                    assertTrue(source.read(frame));
                }
            }
        }
        long left = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("picture-decoder-"))
                .count();
        assertEquals(0, left, "decoder threads still running after close");
    }

    private record Picture(long index, double seconds, byte[] rgb) {}

    private static List<Picture> readAll(FrameSource source) {
        List<Picture> out = new ArrayList<>();
        try (source) {
            VideoFrame frame = new VideoFrame(source.width(), source.height());
            while (source.read(frame)) {
                out.add(new Picture(
                        frame.index(), frame.timeSeconds(), frame.rgb().clone()));
            }
        }
        return out;
    }

    private static void assertSame(List<Picture> expected, List<Picture> actual, String what) {
        assertEquals(
                expected.stream().map(Picture::index).toList(),
                actual.stream().map(Picture::index).toList(),
                what);
        assertEquals(
                expected.stream().map(Picture::seconds).toList(),
                actual.stream().map(Picture::seconds).toList(),
                what);
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i).rgb(), actual.get(i).rgb(), what + ", picture " + i);
        }
    }
}
