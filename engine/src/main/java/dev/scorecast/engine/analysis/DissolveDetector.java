package dev.scorecast.engine.analysis;

import java.util.ArrayList;
import java.util.List;

/**
 * Dissolves: spans whose frames are blends of the frame before and the frame after. At every
 * frame, for a ladder of span lengths ending there, the detector asks whether the frames at the
 * middle and the quarter points of the span sit where a linear blend of its two ends would put
 * them, while the ends differ clearly. A camera move or a busy scene fails that test (the middle
 * of a pan is not a double exposure of its ends), and so does a hard cut (the middle is one end,
 * not the mix). Overlapping hits are gathered into one candidate, whose exact span is then fitted:
 * each frame's progress from the shot before to the shot after is measured and a ramp fitted to it.
 *
 * <p>The fit must find the two shots either side standing still in that measure (a plateau of
 * {@link #PLATEAU_SECONDS} before and after the ramp) and no single frame carrying most of the
 * change. A steady zoom or pan over smooth content passes the blend test at thumbnail scale, but
 * its progress never levels off; a hard cut inside the window is one big step, not a ramp.
 */
final class DissolveDetector implements TransitionDetector {
    /** Half-lengths of the spans tried; dissolves from about 0.3 s to 3 s. */
    static final double[] HALF_SPANS_SECONDS = {0.15, 0.25, 0.35, 0.5, 0.7, 1.0, 1.4};
    /** The two ends must differ at least this much (thumbnail distance). */
    static final double MIN_END_DISTANCE = 0.05;
    /** Largest misfit of the middle and quarter frames, as a share of the ends' distance. */
    static final double MAX_BLEND_MISFIT = 0.2;

    static final double MIN_DISSOLVE_SECONDS = 0.2;
    static final double MAX_DISSOLVE_SECONDS = 3.0;
    /** Time the progress must stay level on each side of the fitted ramp... */
    static final double PLATEAU_SECONDS = 0.2;
    /** ...moving less than this (a share of the whole change) over that time. */
    static final double MAX_PLATEAU_DRIFT = 0.06;
    /** The largest share of the whole change that one frame of a dissolve may carry. */
    static final double MAX_STEP_SHARE = 0.45;
    /** ...or more than this many times the median frame's share. */
    static final double MAX_STEP_TO_MEDIAN = 6;
    /** Largest RMS misfit of the fitted ramp to the frames' progress. */
    static final double MAX_RAMP_MISFIT = 0.15;
    /** A candidate is settled once this long has passed without a further hit. */
    static final double SETTLE_SECONDS = 1.0;
    /** Frames this far outside a candidate stand for the shots before and after it (half of it around a fitted stretch). */
    static final double MARGIN_SECONDS = SETTLE_SECONDS;

    static final double FULL_STRENGTH_DISTANCE = HardCutDetector.FULL_STRENGTH_DISTANCE;
    private static final int MIN_FRAMES_PER_HALF = 2;
    private static final int MAX_FIT_FRAMES = 240;
    /** Thumbnail cells per side of one layout block: 32 x 18 cells become 8 x 5 blocks. */
    private static final int LAYOUT_BLOCK = 4;

    private final List<Cut> dissolves = new ArrayList<>();
    private FrameHistory history;
    private double candidateStart = Double.NaN;
    private double candidateEnd = Double.NaN;

    @Override
    public void accept(Frame frame) {
        history = frame.history();
        long n = frame.ordinal();
        double now = frame.timeSeconds();
        if (!Double.isNaN(candidateEnd) && now - candidateEnd > SETTLE_SECONDS && !stillMoving(n)) {
            settle();
        }
        for (double half : HALF_SPANS_SECONDS) {
            long m = history.nearest(now - half);
            long s = history.nearest(now - 2 * half);
            if (s < 0
                    || m - s < MIN_FRAMES_PER_HALF
                    || n - m < MIN_FRAMES_PER_HALF
                    || now - history.timeSeconds(s) < 1.5 * half) {
                continue; // not enough history for this span yet, or too few frames in it
            }
            if (isBlend(s, m, n)) {
                double start = history.timeSeconds(s);
                if (Double.isNaN(candidateStart)) {
                    candidateStart = start;
                }
                candidateStart = Math.min(candidateStart, start);
                candidateEnd = now;
            }
        }
    }

    @Override
    public void finish() {
        if (!Double.isNaN(candidateEnd)) {
            settle();
        }
    }

    @Override
    public List<Cut> transitions() {
        return List.copyOf(dissolves);
    }

    private boolean isBlend(long s, long m, long n) {
        float[] a = history.thumbnail(s);
        float[] b = history.thumbnail(n);
        double ends = ThumbnailMath.distance(a, b);
        if (ends < MIN_END_DISTANCE) {
            return false;
        }
        double limit = MAX_BLEND_MISFIT * ends;
        double t0 = history.timeSeconds(s);
        double span = history.timeSeconds(n) - t0;
        if (misfit(m, a, b, t0, span) > limit) {
            return false;
        }
        long q1 = history.nearest(t0 + 0.25 * span);
        long q3 = history.nearest(t0 + 0.75 * span);
        return misfit(q1, a, b, t0, span) <= limit && misfit(q3, a, b, t0, span) <= limit;
    }

    private static boolean isDissolveShaped(RampFit.Ramp ramp, double[] times, double[] progress) {
        double length = ramp.endSeconds() - ramp.startSeconds();
        if (length < MIN_DISSOLVE_SECONDS || length > MAX_DISSOLVE_SECONDS) {
            return false;
        }
        if (!isLevel(times, progress, ramp.startSeconds() - PLATEAU_SECONDS, ramp.startSeconds())
                || !isLevel(times, progress, ramp.endSeconds(), ramp.endSeconds() + PLATEAU_SECONDS)) {
            return false;
        }
        // One frame carrying the change, absolutely or against the typical frame of the ramp, is a
        // cut inside. Against the typical frame, steps are compared per second: decoded pictures
        // lie one to four frames apart, and a step over four frames is not four times too steep.
        List<Double> rates = new ArrayList<>();
        double largest = 0;
        double steepest = 0;
        for (int i = 1; i < times.length; i++) {
            double step = Math.abs(progress[i] - progress[i - 1]);
            if (times[i] > ramp.startSeconds() && times[i - 1] < ramp.endSeconds()) {
                double rate = step / Math.max(1e-3, times[i] - times[i - 1]);
                rates.add(rate);
                largest = Math.max(largest, step);
                steepest = Math.max(steepest, rate);
            }
        }
        if (rates.isEmpty() || largest > MAX_STEP_SHARE) {
            return false;
        }
        rates.sort(null);
        double median = rates.get(rates.size() / 2);
        if (steepest > MAX_STEP_TO_MEDIAN * median) {
            return false;
        }
        return true;
    }

    /** The window covers [{@code from}, {@code to}] and the progress hardly moves in it. */
    private static boolean isLevel(double[] times, double[] progress, double from, double to) {
        if (times[0] > from + 1e-6 || times[times.length - 1] < to - 1e-6) {
            return false;
        }
        double low = Double.MAX_VALUE;
        double high = -Double.MAX_VALUE;
        for (int i = 0; i < times.length; i++) {
            if (times[i] >= from - 1e-6 && times[i] <= to + 1e-6) {
                low = Math.min(low, progress[i]);
                high = Math.max(high, progress[i]);
            }
        }
        return high - low <= MAX_PLATEAU_DRIFT;
    }

    private double misfit(long o, float[] a, float[] b, double t0, double span) {
        double alpha = (history.timeSeconds(o) - t0) / span;
        return ThumbnailMath.blendDistance(history.thumbnail(o), a, b, alpha);
    }

    /**
     * Whether the picture is still on its way from the candidate's start, so the candidate should
     * wait for it to settle: the blend test stops hitting well before a long dissolve between
     * moving shots ends, since motion spoils its middle frames.
     */
    private boolean stillMoving(long n) {
        long a = history.nearest(candidateStart - MARGIN_SECONDS);
        if (a < 0
                || n - a > MAX_FIT_FRAMES
                || history.timeSeconds(n) - candidateStart > MAX_DISSOLVE_SECONDS + MARGIN_SECONDS) {
            return false;
        }
        long recent = history.nearest(history.timeSeconds(n) - PLATEAU_SECONDS);
        float[] now = layout(n);
        double whole = ThumbnailMath.distance(layout(a), now);
        return whole >= MIN_END_DISTANCE && ThumbnailMath.distance(layout(recent), now) > MAX_PLATEAU_DRIFT * whole;
    }

    /**
     * Measures the settled candidate's progress from the frame before it to the frame after it and
     * splits it where the progress levels off: one candidate can hold a dissolve and, soon after, a
     * fade (which is a blend with black). Each moving stretch is then fitted on its own.
     */
    private void settle() {
        long a = history.nearest(candidateStart - MARGIN_SECONDS);
        long b = history.newest();
        candidateStart = Double.NaN;
        candidateEnd = Double.NaN;
        if (a < 0 || b - a < 2 * MIN_FRAMES_PER_HALF) {
            return;
        }
        double[] times = times(a, b);
        double[] progress = progress(a, b);
        if (progress == null) {
            return;
        }
        int i = 0;
        while (i < times.length) {
            while (i < times.length && isLevelAround(times, progress, i)) {
                i++;
            }
            int first = i;
            while (i < times.length && !isLevelAround(times, progress, i)) {
                i++;
            }
            if (first < i && first > 0 && i < times.length) {
                fit(
                        history.nearest(times[first] - MARGIN_SECONDS / 2),
                        history.nearest(times[i - 1] + MARGIN_SECONDS / 2));
            }
        }
    }

    /**
     * The progress within {@link #PLATEAU_SECONDS} around sample {@code i}, and at the samples
     * either side of it however far (decoded pictures can lie four frames apart, farther than half
     * the window), stays within half the allowed drift.
     */
    private static boolean isLevelAround(double[] times, double[] progress, int i) {
        double low = progress[i];
        double high = progress[i];
        for (int j = i - 1; j >= 0 && (j == i - 1 || times[i] - times[j] <= PLATEAU_SECONDS / 2); j--) {
            low = Math.min(low, progress[j]);
            high = Math.max(high, progress[j]);
        }
        for (int j = i + 1; j < times.length && (j == i + 1 || times[j] - times[i] <= PLATEAU_SECONDS / 2); j++) {
            low = Math.min(low, progress[j]);
            high = Math.max(high, progress[j]);
        }
        return high - low <= MAX_PLATEAU_DRIFT / 2;
    }

    /** Fits a ramp to the frames {@code a} to {@code b} and reports it when it is shaped like a dissolve. */
    private void fit(long a, long b) {
        if (b - a < 2 * MIN_FRAMES_PER_HALF || b - a > MAX_FIT_FRAMES) {
            return;
        }
        double ends = ThumbnailMath.distance(history.thumbnail(a), history.thumbnail(b));
        double[] times = times(a, b);
        double[] progress = progress(a, b);
        if (progress == null) {
            return;
        }
        RampFit.Ramp ramp = RampFit.fit(times, progress);
        if (ramp == null || ramp.misfit() > MAX_RAMP_MISFIT || !isDissolveShaped(ramp, times, progress)) {
            return;
        }
        double middle = (ramp.startSeconds() + ramp.endSeconds()) / 2;
        long frame = history.index(history.nearest(middle));
        dissolves.add(new Cut(
                middle,
                frame,
                CutKind.DISSOLVE,
                Math.min(1, ends / FULL_STRENGTH_DISTANCE),
                ramp.startSeconds(),
                ramp.endSeconds()));
    }

    private double[] times(long a, long b) {
        double[] times = new double[(int) (b - a + 1)];
        for (int i = 0; i < times.length; i++) {
            times[i] = history.timeSeconds(a + i);
        }
        return times;
    }

    /** Each frame's place between frame {@code a} (0) and frame {@code b} (1); null when those two hardly differ. */
    private double[] progress(long a, long b) {
        if (ThumbnailMath.distance(history.thumbnail(a), history.thumbnail(b)) < MIN_END_DISTANCE) {
            return null;
        }
        float[] before = layout(a);
        float[] after = layout(b);
        double[] progress = new double[(int) (b - a + 1)];
        for (int i = 0; i < progress.length; i++) {
            progress[i] = ThumbnailMath.progress(layout(a + i), before, after);
        }
        return progress;
    }

    /** The frame's coarse layout, which motion within a shot hardly disturbs; see {@link ThumbnailMath#pooled}. */
    private float[] layout(long o) {
        return ThumbnailMath.pooled(
                history.thumbnail(o), history.thumbnailWidth(), history.thumbnailHeight(), LAYOUT_BLOCK);
    }
}
