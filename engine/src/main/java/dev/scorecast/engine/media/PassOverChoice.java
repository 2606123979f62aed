package dev.scorecast.engine.media;

/**
 * What a source that decodes reference pictures only lets its decoder pass over of each packet it
 * sends: outside the gaps, the non-reference pictures or, for a stream {@link BidirectionalCheck}
 * found fit, every B picture; but nothing of a packet that may give the first picture shown, and
 * only non-reference pictures in the first GOP of a file cut without re-encoding. Decided by the
 * packets' timestamps and flags alone, so the same with any number of decoding threads, whatever
 * they have delivered by then, and on any machine. Not thread-safe.
 */
final class PassOverChoice {
    /** What is passed over outside the gaps being filled. */
    private PassOver outsideGaps = PassOver.NON_REFERENCE;
    /** The earliest presentation time among the packets sent since the start (of the file or segment). */
    private long earliestPtsSent = Long.MAX_VALUE;
    /** Keyframe packets sent since the file was opened. */
    private long keyframesSent;
    /** An edit list cut packets of the file's first GOP: its first picture may be a B picture. */
    private boolean cutStart;

    /** Passes over every B picture outside the gaps from now on, or the non-reference ones only. */
    void bidirectional(boolean bidirectional) {
        outsideGaps = bidirectional ? PassOver.BIDIRECTIONAL : PassOver.NON_REFERENCE;
    }

    /** What is passed over outside the gaps, and outside the file's start. */
    PassOver outsideGaps() {
        return outsideGaps;
    }

    /** A segment starts: the packets sent so far are before it. */
    void restart() {
        earliestPtsSent = Long.MAX_VALUE;
    }

    /**
     * What to pass over of the packet about to be sent, shown at {@code pts} (set).
     *
     * @param discarded        cut by an edit list: gives no picture
     * @param keyframe         a keyframe packet
     * @param nothingDelivered no picture delivered yet since the start (of the file or segment)
     */
    PassOver forPacket(long pts, boolean discarded, boolean keyframe, boolean nothingDelivered, SegmentBounds bounds) {
        // The first picture shown may be a non-reference one (a file cut without re-encoding
        // starts on a B-frame), and with nothing delivered before it there is no gap to go
        // back into: before the first delivery, a packet shown before every one sent so far is
        // decoded whatever its kind.
        boolean mayBeFirst = nothingDelivered && !discarded && pts < earliestPtsSent && bounds.admits(pts);
        if (!discarded) {
            earliestPtsSent = Math.min(earliestPtsSent, pts);
        }
        // In the first GOP of a file cut without re-encoding, B pictures that are references are
        // decoded too: the file's first picture, a B picture when an edit list hides the head of
        // its GOP, may refer to them. A segment starts on a keyframe.
        if (keyframe) {
            keyframesSent++;
        }
        cutStart |= discarded && keyframesSent < 2;
        boolean firstGopOfCut = !bounds.startsAtKeyframe() && cutStart && keyframesSent < 2;
        return mayBeFirst ? PassOver.NOTHING : firstGopOfCut ? PassOver.NON_REFERENCE : outsideGaps;
    }
}
