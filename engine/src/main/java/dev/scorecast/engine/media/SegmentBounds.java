package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avutil.AV_NOPTS_VALUE;

/**
 * Where a source's pictures begin and end, by presentation time: a segment starts on a keyframe
 * ({@code startPts}) and ends before the picture that starts the next ({@code stopPts}). Either
 * bound may be {@code AV_NOPTS_VALUE}: no bound on that side. A picture without a time is never
 * outside.
 */
record SegmentBounds(long startPts, long stopPts) {

    /** The whole file: nothing dropped before, nothing after. */
    static final SegmentBounds WHOLE_FILE = new SegmentBounds(AV_NOPTS_VALUE, AV_NOPTS_VALUE);

    /** These bounds, ending before the picture at {@code stopPts}. */
    SegmentBounds endingBefore(long stopPts) {
        return new SegmentBounds(startPts, stopPts);
    }

    /** Whether the source starts on a segment's keyframe rather than at the start of the file. */
    boolean startsAtKeyframe() {
        return startPts != AV_NOPTS_VALUE;
    }

    /**
     * Whether the picture at {@code pts} belongs to the segment before: an open GOP's leading
     * pictures, or a seek that landed early.
     */
    boolean before(long pts) {
        return startPts != AV_NOPTS_VALUE && pts != AV_NOPTS_VALUE && pts < startPts;
    }

    /** Whether a packet shown at {@code pts} (which has a time) is not before the start. */
    boolean admits(long pts) {
        return startPts == AV_NOPTS_VALUE || pts >= startPts;
    }

    /** Whether the picture at {@code pts} is the next segment's first or later: the source ends before it. */
    boolean reachesStop(long pts) {
        return stopPts != AV_NOPTS_VALUE && pts != AV_NOPTS_VALUE && pts >= stopPts;
    }
}
