package dev.scorecast.engine.analysis;

/**
 * How much of the change between two luma pictures a single shift of the whole picture explains:
 * the signature of a camera pan or tilt, as opposed to a change of shot. Pure function.
 */
final class GlobalShift {
    /** Shifts are searched up to this share of the picture's size, so the compared overlap stays large. */
    private static final double MAX_SHIFT_SHARE = 0.2;

    private static final int COARSE_STEP = 2;
    // Below this mean difference (of 255) there is nothing to explain.
    private static final double NOTHING_CHANGED = 1.0;

    private GlobalShift() {}

    /**
     * The mean absolute difference left after the best shift of {@code previous} onto
     * {@code current}, divided by the difference without a shift: near 0 for a pure pan, near 1
     * when no shift helps (a cut). 1 when the pictures hardly differ.
     */
    static double residualRatio(byte[] previous, byte[] current, int width, int height) {
        double unshifted = meanDifference(previous, current, width, height, 0, 0, 1);
        if (unshifted < NOTHING_CHANGED) {
            return 1;
        }
        int maxX = (int) (width * MAX_SHIFT_SHARE);
        int maxY = (int) (height * MAX_SHIFT_SHARE);
        double best = unshifted;
        int bestX = 0;
        int bestY = 0;
        for (int dy = -maxY; dy <= maxY; dy += COARSE_STEP) {
            for (int dx = -maxX; dx <= maxX; dx += COARSE_STEP) {
                double d = meanDifference(previous, current, width, height, dx, dy, COARSE_STEP);
                if (d < best) {
                    best = d;
                    bestX = dx;
                    bestY = dy;
                }
            }
        }
        int coarseX = bestX;
        int coarseY = bestY;
        best = meanDifference(previous, current, width, height, coarseX, coarseY, 1);
        for (int dy = coarseY - 1; dy <= coarseY + 1; dy++) {
            for (int dx = coarseX - 1; dx <= coarseX + 1; dx++) {
                if (Math.abs(dx) <= maxX && Math.abs(dy) <= maxY) {
                    best = Math.min(best, meanDifference(previous, current, width, height, dx, dy, 1));
                }
            }
        }
        return Math.min(1, best / unshifted);
    }

    /** Mean |current(x, y) - previous(x - dx, y - dy)| over the overlap, every {@code step}-th pixel each way. */
    private static double meanDifference(
            byte[] previous, byte[] current, int width, int height, int dx, int dy, int step) {
        int x0 = Math.max(0, dx);
        int x1 = Math.min(width, width + dx);
        int y0 = Math.max(0, dy);
        int y1 = Math.min(height, height + dy);
        long sum = 0;
        long count = 0;
        for (int y = y0; y < y1; y += step) {
            int row = y * width;
            int shiftedRow = (y - dy) * width - dx;
            for (int x = x0; x < x1; x += step) {
                sum += Math.abs((current[row + x] & 0xff) - (previous[shiftedRow + x] & 0xff));
                count++;
            }
        }
        return count == 0 ? Double.MAX_VALUE : sum / (double) count;
    }
}
