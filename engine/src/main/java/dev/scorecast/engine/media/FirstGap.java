package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avutil.AV_NOPTS_VALUE;

import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * A segment's first gap, between its keyframe and the reference picture after it, decoded as it
 * is read and kept until the screen has answered for it: with no pairs before it, the screen asks
 * for it whenever anything changes, and decoding it on the way costs its own pictures only, where
 * the {@link GapFiller} would decode the keyframe again.
 *
 * <p>Its bounds: the keyframe's time ({@link #openAfter}), then the first later time sent
 * ({@link #sent}), the next reference picture; the pictures shown between are the gap's. Before
 * the end is known, and once {@link #end() ended}, it holds nothing. Not thread-safe.
 */
final class FirstGap {
    private long afterPts = AV_NOPTS_VALUE;
    private long throughPts = AV_NOPTS_VALUE;
    /** The gap's pictures decoded so far, by presentation time. */
    private final TreeMap<Long, byte[]> pictures = new TreeMap<>();

    /** Starts a gap after the keyframe at {@code keyframePts}, forgetting any before. */
    void openAfter(long keyframePts) {
        end();
        afterPts = keyframePts;
    }

    /** Notes a packet sent to the decoder that gives a picture: the first one shown after the keyframe ends the gap. */
    void sent(long pts) {
        if (afterPts != AV_NOPTS_VALUE && throughPts == AV_NOPTS_VALUE && pts > afterPts) {
            throughPts = pts;
        }
    }

    /** Whether the picture at {@code pts} lies in the gap. */
    boolean holds(long pts) {
        return throughPts != AV_NOPTS_VALUE && pts != AV_NOPTS_VALUE && pts > afterPts && pts < throughPts;
    }

    /** Keeps a picture of the gap, decoded and scaled. */
    void keep(long pts, byte[] rgb) {
        pictures.put(pts, rgb);
    }

    /** Whether the gap is the one between the pictures at {@code afterPts} and {@code beforePts}. */
    boolean isBetween(long afterPts, long beforePts) {
        return beforePts == throughPts && afterPts == this.afterPts;
    }

    /** Hands the gap's pictures kept, in presentation order, to {@code action}. */
    void forEachPicture(BiConsumer<Long, byte[]> action) {
        pictures.forEach(action);
    }

    /** Ends the gap when the picture at {@code pts} is its end or later: the screen has answered for it, or it was passed by. */
    void endIfReached(long pts) {
        if (throughPts != AV_NOPTS_VALUE && pts != AV_NOPTS_VALUE && pts >= throughPts) {
            end();
        }
    }

    /** Forgets the gap and its pictures. */
    void end() {
        pictures.clear();
        afterPts = AV_NOPTS_VALUE;
        throughPts = AV_NOPTS_VALUE;
    }
}
