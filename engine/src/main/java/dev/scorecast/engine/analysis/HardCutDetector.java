package dev.scorecast.engine.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongToDoubleFunction;

/**
 * Hard cuts, by an adaptive content detector: a frame whose change against the previous frame
 * stands well above the changes of its neighbours (two frames either side) starts a new shot.
 * Comparing with neighbours rather than with a fixed level is what keeps steady fast motion (pans,
 * busy scenes) from reading as cuts while a cut between two similar shots still stands out.
 *
 * <p>Change is measured two ways and either may call the cut: the pixel-level content change
 * (hue, saturation, value) and the distance between coarse thumbnails. Fine texture that churns
 * every frame (foliage, water, noise, cellular patterns) drowns a cut in the first measure but
 * hardly moves the second; a cut between two flat colours is the other way round.
 *
 * <p>Two look-alikes are then ruled out. A flash: the picture jumps and comes back to what it was
 * within {@link #FLASH_SECONDS}. A jerky pan: one shift of the whole picture explains most of the
 * change. Each decision waits for the frames it needs ahead, so cuts arrive a few frames late.
 * The minimum scene length is not applied here; see {@link MinSceneLength}.
 */
final class HardCutDetector implements TransitionDetector {
    static final int WINDOW_FRAMES = 2;
    static final double FLASH_SECONDS = 0.25;
    /** A picture within this share of the jump's size of the pre-jump picture counts as "back". */
    static final double FLASH_RETURN = 0.4;
    /** A shift that leaves less than this share of the change unexplained marks camera motion. */
    static final double PAN_RESIDUAL = 0.3;
    /** Neighbours' mean change is not taken below this, so compression noise on a still shot cannot make a tiny change look huge. */
    static final double NEIGHBOUR_FLOOR = 0.004;
    /** The least thumbnail distance that can be a cut (a tenth of a clearly different shot). */
    static final double MIN_THUMBNAIL_JUMP = 0.03;
    /** Neighbours' mean thumbnail distance is not taken below this (compression noise again). */
    static final double JUMP_NEIGHBOUR_FLOOR = 0.003;
    /** Thumbnail distance that counts as the full strength of a cut. */
    static final double FULL_STRENGTH_DISTANCE = 0.2;

    private static final int MAX_LOOKAHEAD_FRAMES = 32;
    private static final int PAN_SLOTS = 2 * MAX_LOOKAHEAD_FRAMES;
    // The pan check runs only where a cut is possible: well above the change of the frames just before.
    private static final double PAN_CHECK_RATIO = 1.5;

    private final double adaptiveRatio;
    private final double minContentDelta;
    private final List<Cut> cuts = new ArrayList<>();
    private final double[] panResidual = new double[PAN_SLOTS];
    private final double[] thumbnailJump = new double[PAN_SLOTS];
    private FrameHistory history;
    private byte[] previousLuma;
    private long nextCandidate = 1;
    private long suppressedThrough = -1;

    /**
     * @param adaptiveRatio   how many times its neighbours' mean change a frame's change must be
     * @param minContentDelta the least content change (fraction of full scale) that can be a cut
     */
    HardCutDetector(double adaptiveRatio, double minContentDelta) {
        this.adaptiveRatio = adaptiveRatio;
        this.minContentDelta = minContentDelta;
        Arrays.fill(panResidual, Double.NaN);
    }

    @Override
    public void accept(Frame frame) {
        history = frame.history();
        long n = frame.ordinal();
        panResidual[slot(n)] = Double.NaN;
        thumbnailJump[slot(n)] = n == 0 ? 0 : ThumbnailMath.distance(history.thumbnail(n - 1), history.thumbnail(n));
        if (previousLuma == null) {
            previousLuma = new byte[frame.luma().length];
        } else if (mayBeCut(n)) {
            panResidual[slot(n)] = GlobalShift.residualRatio(previousLuma, frame.luma(), frame.width(), frame.height());
        }
        System.arraycopy(frame.luma(), 0, previousLuma, 0, previousLuma.length);
        double now = frame.timeSeconds();
        while (nextCandidate + WINDOW_FRAMES <= n
                && (now - history.timeSeconds(nextCandidate) >= FLASH_SECONDS
                        || n - nextCandidate >= MAX_LOOKAHEAD_FRAMES)) {
            evaluate(nextCandidate++);
        }
    }

    @Override
    public void finish() {
        if (history != null) {
            while (nextCandidate <= history.newest()) {
                evaluate(nextCandidate++);
            }
        }
    }

    @Override
    public List<Cut> transitions() {
        return List.copyOf(cuts);
    }

    /** Whether frame {@code n} could turn out a cut, judged from the frames before it only. */
    private boolean mayBeCut(long n) {
        return standsOut(n, history.contentDelta(n), minContentDelta, j -> history.contentDelta(j), NEIGHBOUR_FLOOR)
                || standsOut(
                        n,
                        thumbnailJump[slot(n)],
                        MIN_THUMBNAIL_JUMP,
                        j -> thumbnailJump[slot(j)],
                        JUMP_NEIGHBOUR_FLOOR);
    }

    private boolean standsOut(long n, double change, double least, LongToDoubleFunction changeAt, double floor) {
        if (change < least) {
            return false;
        }
        double before = 0;
        int count = 0;
        for (long j = n - 1; j >= Math.max(1, n - WINDOW_FRAMES); j--) {
            before += changeAt.applyAsDouble(j);
            count++;
        }
        return count == 0 || change >= PAN_CHECK_RATIO * Math.max(before / count, floor);
    }

    private void evaluate(long c) {
        if (c <= suppressedThrough || !history.holds(c - 1)) {
            return;
        }
        boolean contentCut =
                isPeak(c, history.contentDelta(c), minContentDelta, j -> history.contentDelta(j), NEIGHBOUR_FLOOR);
        double jump = thumbnailJump[slot(c)];
        boolean thumbnailCut = isPeak(c, jump, MIN_THUMBNAIL_JUMP, j -> thumbnailJump[slot(j)], JUMP_NEIGHBOUR_FLOOR);
        if (!contentCut && !thumbnailCut) {
            return;
        }
        float[] before = history.thumbnail(c - 1);
        if (isFlash(c, before, jump) || returnsFromFlash(c, jump)) {
            return;
        }
        double residual = panResidual[slot(c)];
        if (residual < PAN_RESIDUAL) {
            return;
        }
        cuts.add(Cut.hard(history.timeSeconds(c), history.index(c), Math.min(1, jump / FULL_STRENGTH_DISTANCE)));
    }

    /** The change at {@code c} is at least {@code least} and {@code adaptiveRatio} times its neighbours' mean. */
    private boolean isPeak(long c, double change, double least, LongToDoubleFunction changeAt, double floor) {
        if (change < least) {
            return false;
        }
        double sum = 0;
        int count = 0;
        for (long j = c - WINDOW_FRAMES; j <= c + WINDOW_FRAMES; j++) {
            if (j != c && j >= 1 && history.holds(j)) {
                sum += changeAt.applyAsDouble(j);
                count++;
            }
        }
        double neighbours = count == 0 ? 0 : sum / count;
        return change >= adaptiveRatio * Math.max(neighbours, floor);
    }

    /** The picture comes back to the pre-jump look shortly after: a flash, and no frame of it is a cut. */
    private boolean isFlash(long c, float[] before, double jump) {
        double start = history.timeSeconds(c);
        for (long k = c + 1; k <= history.newest() && history.timeSeconds(k) - start <= FLASH_SECONDS; k++) {
            if (ThumbnailMath.distance(before, history.thumbnail(k)) <= FLASH_RETURN * jump) {
                suppressedThrough = k;
                return true;
            }
        }
        return false;
    }

    /** This jump lands back on a look from just before: the end of a flash or of a few stray frames. */
    private boolean returnsFromFlash(long c, double jump) {
        float[] after = history.thumbnail(c);
        double end = history.timeSeconds(c);
        for (long k = c - 2; k >= history.oldest() && end - history.timeSeconds(k) <= FLASH_SECONDS; k--) {
            if (ThumbnailMath.distance(history.thumbnail(k), after) <= FLASH_RETURN * jump) {
                return true;
            }
        }
        return false;
    }

    private static int slot(long ordinal) {
        return (int) (ordinal % PAN_SLOTS);
    }
}
