package dev.scorecast.engine.analysis;

import java.util.ArrayList;
import java.util.List;

/**
 * Fades to and from black or white. Entering a blank frame after a picture (or the reverse)
 * raises the question; the answer is the luma ramp around that moment. A fade is a run of frames
 * whose mean luma moves steadily towards (or away from) the blank, between two plateaus: the
 * picture it leaves or reaches, and the blank itself. A fade out is reported where the blank
 * plateau begins, a fade in at its first frame off the blank.
 *
 * <p>The plateaus are what tell a fade from its look-alikes: a hard cut to black has no ramp, a
 * camera flash to white is one or two frames, and a dark shot that keeps getting darker for
 * reasons of its own does not end in a blank. The ramp must last {@link #MIN_FADE_SECONDS}.
 */
final class FadeDetector implements TransitionDetector {
    static final double MIN_FADE_SECONDS = 0.2;
    static final double MAX_FADE_SECONDS = 4.0;
    /** The ramp must cover at least this much of the luma range. */
    static final double MIN_RAMP = 0.06;
    /**
     * The ramp ends where the luma moved less than this per frame, on average over
     * {@link #PLATEAU_FRAMES}: a 4 s fade of a dark shot (mean luma 0.15) still moves faster.
     */
    static final double MIN_STEP = 0.0008;

    static final int PLATEAU_FRAMES = 4;
    /** Frames within this much luma of the blank's floor are part of the blank. */
    static final double FLOOR_MARGIN = 0.006;
    /**
     * No single step between frames may carry more than this share of the ramp's height: a flash
     * to white at the end of a slow brightening is one jump, however the picture crept before it.
     */
    static final double MAX_STEP_SHARE = 0.5;
    /** A ramp this tall is a fade of full strength. */
    static final double FULL_STRENGTH_RAMP = 0.4;

    private final List<Cut> fades = new ArrayList<>();
    private FrameHistory history;
    private Tone previousTone;
    /** The fade being followed forward to its plateau, or null. */
    private Pending pending;

    /** A fade whose one end is known and whose other end is still to come. */
    private record Pending(boolean fadeIn, Tone blank, long fixedEnd, long trigger) {}

    @Override
    public void accept(Frame frame) {
        history = frame.history();
        long n = frame.ordinal();
        Tone tone = frame.tone();
        if (pending != null && (plateauBehind(n, pending) || tooLong(n, pending))) {
            settle(n);
        }
        if (pending == null && previousTone != null) {
            if (previousTone == Tone.PICTURE && tone != Tone.PICTURE) {
                pending = new Pending(false, tone, rampStartBefore(n, tone), n);
            } else if (previousTone != Tone.PICTURE && tone == Tone.PICTURE) {
                pending = new Pending(true, previousTone, firstOffBlank(n, previousTone), n);
            }
        }
        previousTone = tone;
    }

    @Override
    public void finish() {
        if (pending != null && history != null) {
            settle(history.newest() + 1);
        }
    }

    @Override
    public List<Cut> transitions() {
        return List.copyOf(fades);
    }

    /** How far frame {@code o} is from {@code blank}: its luma for black, its darkness for white. */
    private double lift(long o, Tone blank) {
        double luma = history.meanLuma(o);
        return blank == Tone.WHITE ? 1 - luma : luma;
    }

    /**
     * Walks back from the first blank frame {@code b} over the frames whose lift falls towards it,
     * to the end of the picture's plateau.
     */
    private long rampStartBefore(long b, Tone blank) {
        long j = b;
        while (j - 1 >= history.oldest()
                && history.tone(j - 1) == Tone.PICTURE
                && history.timeSeconds(b) - history.timeSeconds(j - 1) <= MAX_FADE_SECONDS
                && !flatOver(j - 1, -1, blank)) {
            j--;
        }
        return j - 1;
    }

    /** Walks back from the first picture frame {@code p} over the blank frames that already rise off the floor. */
    private long firstOffBlank(long p, Tone blank) {
        long j = p;
        double floor = lift(p - 1, blank);
        for (long o = p - 1; o >= history.oldest() && history.tone(o) == blank; o--) {
            floor = Math.min(floor, lift(o, blank));
        }
        while (j - 1 >= history.oldest() && history.tone(j - 1) == blank && lift(j - 1, blank) > floor + FLOOR_MARGIN) {
            j--;
        }
        return j;
    }

    /** The lift over {@link #PLATEAU_FRAMES} frames from {@code o} in {@code direction} moves too little to be a ramp. */
    private boolean flatOver(long o, int direction, Tone blank) {
        long other = o + direction * (long) PLATEAU_FRAMES;
        if (!history.holds(other)) {
            other = direction < 0 ? history.oldest() : history.newest();
        }
        if (other == o) {
            return true;
        }
        // Per frame of the stream, not per decoded picture: pictures may lie up to four frames apart.
        long frames = Math.max(1, Math.abs(history.index(other) - history.index(o)));
        double rise = direction < 0 ? lift(other, blank) - lift(o, blank) : lift(o, blank) - lift(other, blank);
        return rise < MIN_STEP * frames;
    }

    /** The ramp being followed has stopped moving {@link #PLATEAU_FRAMES} frames ago, or the tone left the blank. */
    private boolean plateauBehind(long n, Pending p) {
        if (!p.fadeIn() && history.tone(n) != p.blank()) {
            return true;
        }
        long from = n - PLATEAU_FRAMES;
        if (from < p.trigger() - 1) {
            return false;
        }
        double moved =
                p.fadeIn() ? lift(n, p.blank()) - lift(from, p.blank()) : lift(from, p.blank()) - lift(n, p.blank());
        return moved < MIN_STEP * Math.max(PLATEAU_FRAMES, history.index(n) - history.index(from));
    }

    private boolean tooLong(long n, Pending p) {
        return !history.holds(p.fixedEnd())
                || history.timeSeconds(n) - history.timeSeconds(p.fixedEnd()) > MAX_FADE_SECONDS;
    }

    /** The ramp followed from {@code pending} ended before frame {@code n}: report it if it is a fade. */
    private void settle(long n) {
        Pending p = pending;
        pending = null;
        long last = n - 1;
        if (!history.holds(p.fixedEnd())) {
            return;
        }
        // The plateau the ramp reached is the frames at the end of the followed run; its first frame closes the fade.
        double reached = lift(last, p.blank());
        long close = p.trigger();
        if (p.fadeIn()) {
            double top = reached;
            for (long o = p.trigger(); o <= last; o++) {
                top = Math.max(top, lift(o, p.blank()));
            }
            while (close < last
                    && lift(close, p.blank()) < top - FLOOR_MARGIN - 0.05 * (top - lift(p.fixedEnd() - 1, p.blank()))) {
                close++;
            }
            report(CutKind.FADE_IN, p.fixedEnd() - 1, close, p.blank(), p.fixedEnd());
        } else {
            double floor = reached;
            for (long o = p.trigger(); o <= last; o++) {
                floor = Math.min(floor, lift(o, p.blank()));
            }
            while (close < last && lift(close, p.blank()) > floor + FLOOR_MARGIN) {
                close++;
            }
            report(CutKind.FADE_OUT, p.fixedEnd(), close, p.blank(), close);
        }
    }

    /** A ramp from frame {@code from} to frame {@code to}; {@code at} is the frame the fade is reported at. */
    private void report(CutKind kind, long from, long to, Tone blank, long at) {
        if (!history.holds(from) || to <= from) {
            return;
        }
        double height = Math.abs(lift(to, blank) - lift(from, blank));
        double start = history.timeSeconds(from);
        double end = history.timeSeconds(to);
        if (height < MIN_RAMP
                || end - start < MIN_FADE_SECONDS
                || !passesMiddle(from, to, blank, height)
                || largestStep(from, to, blank) > MAX_STEP_SHARE * height) {
            return;
        }
        double time = history.timeSeconds(at);
        fades.add(new Cut(time, history.index(at), kind, Math.min(1, height / FULL_STRENGTH_RAMP), start, end));
    }

    private double largestStep(long from, long to, Tone blank) {
        double largest = 0;
        for (long o = from + 1; o <= to; o++) {
            largest = Math.max(largest, Math.abs(lift(o, blank) - lift(o - 1, blank)));
        }
        return largest;
    }

    /** The ramp passes through the middle of its height rather than jumping over it. */
    private boolean passesMiddle(long from, long to, Tone blank, double height) {
        double low = Math.min(lift(from, blank), lift(to, blank)) + 0.2 * height;
        double high = Math.max(lift(from, blank), lift(to, blank)) - 0.2 * height;
        for (long o = from + 1; o < to; o++) {
            double level = lift(o, blank);
            if (level > low && level < high) {
                return true;
            }
        }
        return false;
    }
}
