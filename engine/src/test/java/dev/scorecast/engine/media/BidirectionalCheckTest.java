package dev.scorecast.engine.media;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which streams may pass over every B picture, and what goes wrong in one that may not. */
class BidirectionalCheckTest {
    @TempDir
    static Path dir;

    private static final String MOVING =
            "-f lavfi -i testsrc2=s=320x180:r=30:d=4,noise=alls=8:allf=t -pix_fmt yuv420p -c:v libx264 ";

    /** x264's veryfast: one reference, so P pictures refer to the I or P picture before them. */
    private static Path veryfast;
    /** x264's default preset: three references and a B pyramid, so P pictures also refer to B pictures. */
    private static Path medium;

    @BeforeAll
    static void makeClips() {
        veryfast = TestVideos.make(dir, "veryfast.mp4", MOVING + "-preset veryfast -g 60");
        medium = TestVideos.make(dir, "medium.mp4", MOVING + "-preset medium -g 60");
    }

    @Test
    void aStreamWhosePPicturesReferToIAndPOnlyMayPassOverEveryB() {
        assertTrue(BidirectionalCheck.passOverIsSafe(veryfast, MediaLimits.DEFAULT));
    }

    @Test
    void aStreamWhosePPicturesReferToBPicturesMayNot() {
        assertFalse(BidirectionalCheck.passOverIsSafe(medium, MediaLimits.DEFAULT));
        // Why it matters: passed over anyway, its P pictures come out wrong.
        Map<Long, byte[]> references = pictures(medium, false);
        Map<Long, byte[]> withoutB = pictures(medium, true);
        assertTrue(withoutB.size() > 10 && references.keySet().containsAll(withoutB.keySet()));
        long wrong = withoutB.entrySet().stream()
                .filter(e -> !Arrays.equals(e.getValue(), references.get(e.getKey())))
                .count();
        assertTrue(
                wrong > withoutB.size() / 2,
                wrong + " of " + withoutB.size() + " I and P pictures wrong without the B pictures");
        // And in a stream the check passes, none is.
        Map<Long, byte[]> fine = pictures(veryfast, true);
        Map<Long, byte[]> fineReferences = pictures(veryfast, false);
        assertEquals(
                0,
                fine.entrySet().stream()
                        .filter(e -> !Arrays.equals(e.getValue(), fineReferences.get(e.getKey())))
                        .count());
    }

    @Test
    void aStreamWithoutBPicturesHasNothingToPassOver() {
        Path noB = TestVideos.make(dir, "no-b.mp4", MOVING + "-preset veryfast -bf 0");
        assertFalse(BidirectionalCheck.passOverIsSafe(noB, MediaLimits.DEFAULT));
    }

    @Test
    void aStillOpeningProvesNothing() {
        // Identical pictures would match whatever the P pictures referred to.
        Path still = TestVideos.make(
                dir,
                "still.mp4",
                "-f lavfi -i smptehdbars=s=320x180:r=30:d=4 -pix_fmt yuv420p -c:v libx264 -preset veryfast");
        assertFalse(BidirectionalCheck.passOverIsSafe(still, MediaLimits.DEFAULT));
    }

    @Test
    void whatIsNotAVideoIsNotSafe() {
        assertFalse(BidirectionalCheck.passOverIsSafe(dir.resolve("missing.mp4"), MediaLimits.DEFAULT));
    }

    /** Pictures by index, passing over non-reference pictures or every B picture, never looking into gaps. */
    private static Map<Long, byte[]> pictures(Path clip, boolean withoutB) {
        Map<Long, byte[]> out = new HashMap<>();
        try (FfmpegFrameSource source =
                FfmpegFrameSource.open(clip, MediaLimits.DEFAULT, 160, (before, after, undecoded) -> false, 1)) {
            source.passOverBidirectional(withoutB);
            VideoFrame frame = new VideoFrame(source.width(), source.height());
            while (source.read(frame)) {
                out.put(frame.index(), frame.rgb().clone());
            }
        }
        return out;
    }
}
