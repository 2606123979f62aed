package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avutil.AV_NOPTS_VALUE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A segment's first gap: after its keyframe at 30, through the first picture sent that is shown later (34). */
class FirstGapTest {

    private static FirstGap gapAfter30Through34() {
        FirstGap gap = new FirstGap();
        gap.openAfter(30);
        gap.sent(30); // the keyframe itself
        gap.sent(34); // the next reference picture, sent before the B pictures 31 to 33
        gap.sent(31);
        return gap;
    }

    private static List<Long> keptTimes(FirstGap gap) {
        List<Long> times = new ArrayList<>();
        gap.forEachPicture((pts, rgb) -> times.add(pts));
        return times;
    }

    @Test
    void thePicturesBetweenTheKeyframeAndTheNextSentAreTheGaps() {
        FirstGap gap = gapAfter30Through34();
        assertFalse(gap.holds(30));
        assertTrue(gap.holds(31));
        assertTrue(gap.holds(33));
        assertFalse(gap.holds(34));
        assertFalse(gap.holds(AV_NOPTS_VALUE));
        assertTrue(gap.isBetween(30, 34));
        assertFalse(gap.isBetween(30, 35));
        assertFalse(gap.isBetween(31, 34));
    }

    @Test
    void itHoldsNothingUntilItsEndIsSent() {
        FirstGap gap = new FirstGap();
        gap.openAfter(30);
        gap.sent(30);
        assertFalse(gap.holds(31));
    }

    @Test
    void withoutAKeyframeThereIsNoGap() {
        FirstGap gap = new FirstGap();
        gap.sent(34);
        assertFalse(gap.holds(31));
    }

    @Test
    void itKeepsItsPicturesInPresentationOrder() {
        FirstGap gap = gapAfter30Through34();
        gap.keep(33, new byte[] {3});
        gap.keep(31, new byte[] {1});
        gap.keep(32, new byte[] {2});
        assertEquals(List.of(31L, 32L, 33L), keptTimes(gap));
        List<byte[]> pixels = new ArrayList<>();
        gap.forEachPicture((pts, rgb) -> pixels.add(rgb));
        assertArrayEquals(new byte[] {1}, pixels.getFirst());
    }

    @Test
    void itEndsOnceThePictureAtItsEndOrALaterOneComes() {
        FirstGap gap = gapAfter30Through34();
        gap.keep(31, new byte[] {1});
        gap.endIfReached(33);
        gap.endIfReached(AV_NOPTS_VALUE);
        assertTrue(gap.holds(32));
        gap.endIfReached(34);
        assertFalse(gap.holds(32));
        assertEquals(List.of(), keptTimes(gap));
        gap.sent(36); // an ended gap does not open again
        assertFalse(gap.holds(35));
    }

    @Test
    void openingAnotherForgetsTheOneBefore() {
        FirstGap gap = gapAfter30Through34();
        gap.keep(31, new byte[] {1});
        gap.openAfter(60);
        assertFalse(gap.holds(31));
        assertEquals(List.of(), keptTimes(gap));
        gap.sent(63);
        assertTrue(gap.holds(62));
    }
}
