package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avutil.AV_NOPTS_VALUE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The ledger counts what was passed over from the packets read; the pictures are a GOP I0 P3 B1 B2 P6 B4 B5 in decoding order. */
class PassOverLedgerTest {

    private static PassOverLedger readGop(long... ptsInDecodingOrder) {
        PassOverLedger ledger = new PassOverLedger();
        long dts = -1;
        for (long pts : ptsInDecodingOrder) {
            ledger.read(pts, dts++, false, pts == 0);
        }
        return ledger;
    }

    @Test
    void picturesReadBetweenTwoDeliveredOnesWerePassedOver() {
        PassOverLedger ledger = readGop(0, 3, 1, 2, 6, 4, 5);
        ledger.delivered(0);
        assertEquals(2, ledger.pendingBefore(3));
        ledger.delivered(3);
        assertEquals(3, ledger.lastDeliveredPts());
        assertEquals(2, ledger.pendingBefore(6));
        assertEquals(0, ledger.pendingBefore(4));
    }

    @Test
    void aDeliveredPictureSettlesEveryOneShownBeforeIt() {
        PassOverLedger ledger = readGop(0, 3, 1, 2, 6, 4, 5);
        ledger.delivered(0);
        ledger.delivered(6); // 1 to 5 passed over, or delivered from a gap: settled either way
        ledger.read(9, 6, false, false);
        assertEquals(0, ledger.pendingBefore(9));
    }

    @Test
    void beforeAnyDeliveryEveryPictureReadShownEarlierIsPending() {
        PassOverLedger ledger = readGop(0, 3, 1, 2);
        assertEquals(AV_NOPTS_VALUE, ledger.lastDeliveredPts());
        assertEquals(3, ledger.pendingBefore(3));
    }

    @Test
    void aPictureWithoutATimeLeavesTheLedgerAsItWas() {
        PassOverLedger ledger = readGop(0, 3, 1, 2);
        ledger.delivered(0);
        ledger.delivered(AV_NOPTS_VALUE);
        assertEquals(0, ledger.lastDeliveredPts());
        assertEquals(2, ledger.pendingBefore(3));
    }

    @Test
    void aPacketCutByAnEditListGivesNoPictureButCountsAsRead() {
        PassOverLedger ledger = new PassOverLedger();
        ledger.read(-2, -3, true, true); // the cut GOP's keyframe
        ledger.read(0, -2, false, false);
        ledger.read(1, -1, true, false);
        ledger.read(2, 0, false, false);
        assertNull(ledger.keyframeAtOrBefore(5));
        ledger.delivered(0);
        assertEquals(0, ledger.pendingBefore(2));
        assertTrue(ledger.readThrough(0));
        assertFalse(ledger.readThrough(1));
    }

    @Test
    void readingReachesAsFarAsTheLatestDecodingTimeOrThePresentationTimeWithoutOne() {
        PassOverLedger ledger = new PassOverLedger();
        assertFalse(ledger.readThrough(Long.MIN_VALUE + 1));
        ledger.read(0, -1, false, true);
        assertTrue(ledger.readThrough(-1));
        assertFalse(ledger.readThrough(0));
        ledger.read(3, AV_NOPTS_VALUE, false, false); // Matroska leaves some decoding times unset
        assertTrue(ledger.readThrough(3));
        assertFalse(ledger.readThrough(4));
    }

    @Test
    void aGapIsDecodedFromTheLastKeyframeAtOrBeforeIt() {
        PassOverLedger ledger = new PassOverLedger();
        ledger.read(0, -2, false, true);
        ledger.read(30, 28, false, true);
        ledger.read(31, 29, false, false);
        assertEquals(Map.entry(0L, -2L), ledger.keyframeAtOrBefore(29));
        assertEquals(Map.entry(30L, 28L), ledger.keyframeAtOrBefore(30));
        assertEquals(Map.entry(30L, 28L), ledger.keyframeAtOrBefore(31));
        assertNull(ledger.keyframeAtOrBefore(-1));
    }

    @Test
    void clearingForgetsEverything() {
        PassOverLedger ledger = readGop(0, 3, 1, 2);
        ledger.delivered(0);
        ledger.clear();
        assertEquals(AV_NOPTS_VALUE, ledger.lastDeliveredPts());
        assertEquals(0, ledger.pendingBefore(3));
        assertNull(ledger.keyframeAtOrBefore(0));
        assertFalse(ledger.readThrough(Long.MIN_VALUE + 1));
    }
}
