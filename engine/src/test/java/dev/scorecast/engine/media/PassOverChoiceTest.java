package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avutil.AV_NOPTS_VALUE;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** What the decoder passes over of each packet sent, by the packets' timestamps and flags alone. */
class PassOverChoiceTest {
    private static final SegmentBounds WHOLE = SegmentBounds.WHOLE_FILE;

    @Test
    void outsideTheStartNonReferencePicturesOrEveryBPictureArePassedOver() {
        PassOverChoice choice = new PassOverChoice();
        assertEquals(PassOver.NON_REFERENCE, choice.outsideGaps());
        assertEquals(PassOver.NOTHING, choice.forPacket(0, false, true, true, WHOLE));
        assertEquals(PassOver.NON_REFERENCE, choice.forPacket(3, false, false, false, WHOLE));
        choice.bidirectional(true);
        assertEquals(PassOver.BIDIRECTIONAL, choice.outsideGaps());
        assertEquals(PassOver.BIDIRECTIONAL, choice.forPacket(1, false, false, false, WHOLE));
        choice.bidirectional(false);
        assertEquals(PassOver.NON_REFERENCE, choice.forPacket(2, false, false, false, WHOLE));
    }

    @Test
    void beforeTheFirstDeliveryAPacketShownBeforeEverySentOneIsDecodedInFull() {
        PassOverChoice choice = new PassOverChoice();
        choice.bidirectional(true);
        assertEquals(PassOver.NOTHING, choice.forPacket(0, false, true, true, WHOLE));
        assertEquals(PassOver.BIDIRECTIONAL, choice.forPacket(3, false, false, true, WHOLE)); // shown after 0
        assertEquals(
                PassOver.BIDIRECTIONAL, choice.forPacket(-1, false, false, false, WHOLE)); // something was delivered
    }

    @Test
    void aFileCutWithoutReEncodingDecodesItsFirstGopsReferenceBPictures() {
        PassOverChoice choice = new PassOverChoice();
        choice.bidirectional(true);
        // The edit list hid the GOP's head: its keyframe and first pictures are discarded.
        assertEquals(PassOver.NON_REFERENCE, choice.forPacket(-3, true, true, true, WHOLE));
        assertEquals(PassOver.NOTHING, choice.forPacket(2, false, false, true, WHOLE)); // may be the first shown
        assertEquals(PassOver.NOTHING, choice.forPacket(0, false, false, true, WHOLE)); // earlier still
        assertEquals(PassOver.NON_REFERENCE, choice.forPacket(1, false, false, false, WHOLE));
        assertEquals(PassOver.BIDIRECTIONAL, choice.forPacket(27, false, true, false, WHOLE)); // the second GOP
    }

    @Test
    void aSegmentStartsOnAKeyframeAndItsFirstPictureIsNoEarlierThanIt() {
        PassOverChoice choice = new PassOverChoice();
        choice.bidirectional(true);
        choice.forPacket(-3, true, true, true, WHOLE); // a cut start, in the segment before
        choice.restart();
        SegmentBounds segment = new SegmentBounds(30, AV_NOPTS_VALUE);
        assertEquals(PassOver.NOTHING, choice.forPacket(30, false, true, true, segment));
        assertEquals(
                PassOver.BIDIRECTIONAL,
                choice.forPacket(28, false, false, true, segment)); // an open GOP's leading picture
        assertEquals(PassOver.BIDIRECTIONAL, choice.forPacket(33, false, false, true, segment));
    }

    @Test
    void restartingForgetsThePacketsSentBefore() {
        PassOverChoice choice = new PassOverChoice();
        choice.forPacket(0, false, true, true, WHOLE);
        choice.forPacket(30, false, true, false, WHOLE);
        assertEquals(PassOver.NON_REFERENCE, choice.forPacket(60, false, true, true, WHOLE));
        choice.restart();
        assertEquals(PassOver.NOTHING, choice.forPacket(60, false, true, true, WHOLE));
    }
}
