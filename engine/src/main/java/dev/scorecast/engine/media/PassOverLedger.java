package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avutil.AV_NOPTS_VALUE;

import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a source that decodes reference pictures only has read and not yet delivered, by the
 * packets' timestamps: the decoder never says what it passed over, so the pictures passed over
 * between two delivered ones are counted here, as the times read between them that no delivered
 * picture took. It also keeps the keyframes read, which a gap is decoded from, and how far the
 * reading has gone in decoding order, which tells whether a picture could still be read that is
 * shown before a given one.
 *
 * <p>For the whole file or one segment; {@link #clear()} starts it afresh. Not thread-safe.
 */
final class PassOverLedger {
    /** Presentation times of the pictures read that have been neither delivered nor passed over yet. */
    private final TreeSet<Long> pending = new TreeSet<>();
    /** The keyframes read: presentation time to decoding time. */
    private final TreeMap<Long, Long> keyframes = new TreeMap<>();

    private long maxDtsRead = Long.MIN_VALUE;
    private long lastDeliveredPts = AV_NOPTS_VALUE;

    /**
     * Notes a packet read. {@code pts} is set (a stream without timestamps has no ledger);
     * {@code dts} may be {@code AV_NOPTS_VALUE}, and then the packet counts as decoded at its
     * presentation time. A {@code discarded} packet (cut by an edit list) gives no picture.
     */
    void read(long pts, long dts, boolean discarded, boolean keyframe) {
        if (!discarded) {
            pending.add(pts);
            if (keyframe) {
                keyframes.put(pts, dts);
            }
        }
        maxDtsRead = Math.max(maxDtsRead, dts != AV_NOPTS_VALUE ? dts : pts);
    }

    /**
     * Whether a packet read so far decodes at or after {@code pts}: decoding times never exceed
     * presentation ones, so no picture shown before {@code pts} is still to be read.
     */
    boolean readThrough(long pts) {
        return maxDtsRead >= pts;
    }

    /** How many pictures read lie after the last delivered one and before the one at {@code pts}, undelivered. */
    int pendingBefore(long pts) {
        return pending.subSet(lastDeliveredPts, false, pts, false).size();
    }

    /**
     * Notes the picture at {@code pts} delivered: it and every picture shown before it are settled
     * (delivered or passed over). A picture without a time leaves the ledger as it was.
     */
    void delivered(long pts) {
        if (pts != AV_NOPTS_VALUE) {
            lastDeliveredPts = pts;
            pending.headSet(pts, true).clear();
        }
    }

    /** The time of the last picture delivered with one, or {@code AV_NOPTS_VALUE}. */
    long lastDeliveredPts() {
        return lastDeliveredPts;
    }

    /** The last keyframe read shown at or before {@code pts}, presentation time to decoding time; null if none. */
    Map.Entry<Long, Long> keyframeAtOrBefore(long pts) {
        return keyframes.floorEntry(pts);
    }

    /** Forgets everything: a segment starts. */
    void clear() {
        pending.clear();
        keyframes.clear();
        maxDtsRead = Long.MIN_VALUE;
        lastDeliveredPts = AV_NOPTS_VALUE;
    }
}
