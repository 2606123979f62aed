package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avutil.AV_NOPTS_VALUE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SegmentBoundsTest {

    @Test
    void theWholeFileDropsNothing() {
        SegmentBounds whole = SegmentBounds.WHOLE_FILE;
        assertFalse(whole.startsAtKeyframe());
        assertFalse(whole.before(Long.MIN_VALUE + 1));
        assertTrue(whole.admits(Long.MIN_VALUE + 1));
        assertFalse(whole.reachesStop(Long.MAX_VALUE));
    }

    @Test
    void aSegmentRunsFromItsKeyframeToBeforeTheNextSegmentsFirstPicture() {
        SegmentBounds segment = new SegmentBounds(100, 200);
        assertTrue(segment.startsAtKeyframe());
        assertTrue(segment.before(99));
        assertFalse(segment.before(100));
        assertFalse(segment.admits(99));
        assertTrue(segment.admits(100));
        assertFalse(segment.reachesStop(199));
        assertTrue(segment.reachesStop(200));
        assertTrue(segment.reachesStop(201));
    }

    @Test
    void aPictureWithoutATimeIsNeverOutside() {
        SegmentBounds segment = new SegmentBounds(100, 200);
        assertFalse(segment.before(AV_NOPTS_VALUE));
        assertFalse(segment.reachesStop(AV_NOPTS_VALUE));
    }

    @Test
    void theLastSegmentRunsToTheEnd() {
        SegmentBounds last = new SegmentBounds(100, AV_NOPTS_VALUE);
        assertFalse(last.reachesStop(Long.MAX_VALUE));
    }

    @Test
    void theFirstSegmentEndsBeforeTheSecondAndStartsWithTheFile() {
        SegmentBounds first = SegmentBounds.WHOLE_FILE.endingBefore(200);
        assertEquals(new SegmentBounds(AV_NOPTS_VALUE, 200), first);
        assertFalse(first.startsAtKeyframe());
        assertTrue(first.reachesStop(200));
    }
}
