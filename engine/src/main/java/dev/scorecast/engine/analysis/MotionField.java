package dev.scorecast.engine.analysis;

import java.util.Arrays;

/**
 * How the camera moved between two luma pictures, by block matching: the shift most of the
 * picture's blocks share (a pan or a tilt), and how much the light changed (flicker: the mean
 * brightness step, which no shift explains). Pure function.
 *
 * <p>How: both pictures are halved, 8 x 8 blocks of the halves are searched within
 * {@link #RANGE_HALF} pixels per frame between the pictures (coarsely over the whole range, then
 * every pixel around the best) by the sum of absolute differences with each block's mean taken
 * away (so that a change of light is not read as motion), and each best shift is refined by one
 * pixel at full size on the 16 x 16 block. Blocks without texture, and blocks that changed in a
 * way no shift in range explains, are left out; the camera's shift is the median of the rest, when
 * at least half of the textured blocks agree with it (churning content finds shifts too, each its own).
 */
final class MotionField {
    static final int BLOCK_HALF = 8;
    static final int RANGE_HALF = 8;
    /** A block agrees with the camera's shift within this many full-size pixels per frame between the pictures. */
    private static final double AGREEMENT_PIXELS = 1.5;
    /** The share of textured blocks that must agree for the shift to be the camera's. */
    private static final double MAJORITY = 0.5;
    /** Mean absolute deviation (of 255) under which a block is flat: no texture to follow. */
    private static final double MIN_TEXTURE = 2.5;
    /** A shift explains a block's change when it leaves at most this share of the unshifted difference. */
    private static final double EXPLAINED = 0.6;
    /** Mean absolute difference per pixel (of 255) under which a block did not change. */
    private static final double UNCHANGED = 1.5;
    /** A small cost per pixel of shift, so that among near-equal matches the shortest wins (flat or repeating texture). */
    private static final double SHIFT_COST = 0.02;

    private MotionField() {}

    /**
     * What moved between {@code previous} and {@code current} (luma, {@code width} x {@code height}).
     *
     * @param frames how many frame intervals apart the pictures are (the search range grows with it)
     * @return the camera's shift in pixels of the full picture, and flicker in luma levels (of 255);
     *         no shift when the picture has no texture
     */
    static Motion between(byte[] previous, byte[] current, int width, int height, int frames) {
        int w = width / 2;
        int h = height / 2;
        int[] a = halve(previous, width, height);
        int[] b = halve(current, width, height);
        int bx = w / BLOCK_HALF;
        int by = h / BLOCK_HALF;
        double flicker = Math.abs(mean(current) - mean(previous));
        if (bx == 0 || by == 0) {
            return new Motion(0, 0, flicker, 0);
        }
        int blocks = bx * by;
        double[] vx = new double[blocks];
        double[] vy = new double[blocks];
        boolean[] tracked = new boolean[blocks];
        boolean[] textured = new boolean[blocks];
        int texturedCount = 0;
        for (int j = 0; j < by; j++) {
            for (int i = 0; i < bx; i++) {
                int k = j * bx + i;
                int x0 = i * BLOCK_HALF;
                int y0 = j * BLOCK_HALF;
                double meanB = blockMean(b, w, x0, y0, BLOCK_HALF);
                if (deviation(b, w, x0, y0, BLOCK_HALF, meanB) < MIN_TEXTURE) {
                    continue;
                }
                textured[k] = true;
                texturedCount++;
                double zero = sad(a, b, w, x0, y0, 0, 0, BLOCK_HALF, meanB);
                if (zero / (BLOCK_HALF * BLOCK_HALF) < UNCHANGED) {
                    tracked[k] = true; // still
                    continue;
                }
                // Coarse over the whole range (steps of the pair's frame distance), then every pixel around the best.
                int range = RANGE_HALF * frames;
                int[] coarse = search(a, b, w, h, x0, y0, meanB, 0, 0, range, frames, zero);
                double coarseCost = coarse[2] == Integer.MAX_VALUE ? zero : coarse[2] / 1000.0;
                int[] near = frames == 1 || coarse[2] == Integer.MAX_VALUE
                        ? coarse
                        : search(a, b, w, h, x0, y0, meanB, coarse[0], coarse[1], frames - 1, 1, coarseCost);
                int bestX = near[0];
                int bestY = near[1];
                double best = near[2] == Integer.MAX_VALUE ? coarseCost : near[2] / 1000.0;
                if (best > EXPLAINED * zero) {
                    continue; // changed, and no shift in range explains it: moved farther
                }
                tracked[k] = true;
                double[] fine = refine(previous, current, width, height, 2 * x0, 2 * y0, 2 * bestX, 2 * bestY);
                vx[k] = fine[0];
                vy[k] = fine[1];
            }
        }
        if (texturedCount == 0) {
            return new Motion(0, 0, flicker, 0);
        }
        // The camera: the shift most tracked blocks share (median of each component).
        double[] xs = new double[texturedCount];
        double[] ys = new double[texturedCount];
        int n = 0;
        for (int k = 0; k < blocks; k++) {
            if (textured[k] && tracked[k]) {
                xs[n] = vx[k];
                ys[n] = vy[k];
                n++;
            }
        }
        double gx = n > 0 ? median(xs, n) : 0;
        double gy = n > 0 ? median(ys, n) : 0;
        // A camera move is one shift that most of the picture shares. Churning content also finds
        // shifts, each its own: without a majority near the median there is no camera move.
        int agreeing = 0;
        double near = AGREEMENT_PIXELS * frames;
        for (int k = 0; k < n; k++) {
            if (Math.hypot(xs[k] - gx, ys[k] - gy) <= near) {
                agreeing++;
            }
        }
        if (agreeing < MAJORITY * texturedCount) {
            gx = 0;
            gy = 0;
        }
        return new Motion(gx, gy, flicker, (double) n / texturedCount);
    }

    /**
     * @param cameraX       the shift the picture as a whole made, full-size pixels across (the
     *                      current picture's content came from {@code cameraX} to the left)
     * @param cameraY       the same, down
     * @param flickerLevels the change of mean brightness, luma levels of 255
     * @param trackedShare  the share of textured blocks whose shift was found in range
     */
    record Motion(double cameraX, double cameraY, double flickerLevels, double trackedShare) {
        double cameraPixels() {
            return Math.hypot(cameraX, cameraY);
        }
    }

    /**
     * The cheapest shift within {@code radius} of {@code (cx, cy)} in steps of {@code step}, against
     * {@code bound} (the cost to beat): {dx, dy, cost x 1000}, the cost {@code Integer.MAX_VALUE} when none beat it.
     */
    private static int[] search(
            int[] a,
            int[] b,
            int w,
            int h,
            int x0,
            int y0,
            double meanB,
            int cx,
            int cy,
            int radius,
            int step,
            double bound) {
        double best = bound;
        int bestX = cx;
        int bestY = cy;
        boolean found = false;
        for (int dy = cy - radius; dy <= cy + radius; dy += step) {
            if (y0 - dy < 0 || y0 - dy + BLOCK_HALF > h) {
                continue;
            }
            for (int dx = cx - radius; dx <= cx + radius; dx += step) {
                if (x0 - dx < 0 || x0 - dx + BLOCK_HALF > w || dx == 0 && dy == 0) {
                    continue;
                }
                double penalty = SHIFT_COST * BLOCK_HALF * BLOCK_HALF * Math.hypot(dx, dy);
                if (penalty >= best) {
                    continue; // a shift this far cannot beat the best, however well it fits
                }
                double cost = sad(a, b, w, x0, y0, dx, dy, BLOCK_HALF, meanB, best - penalty) + penalty;
                if (cost < best) {
                    best = cost;
                    bestX = dx;
                    bestY = dy;
                    found = true;
                }
            }
        }
        return new int[] {
            bestX, bestY, found ? (int) Math.min(Integer.MAX_VALUE - 1, Math.round(best * 1000)) : Integer.MAX_VALUE
        };
    }

    /** The best shift near {@code (dx, dy)}, within one pixel, of the 16 x 16 block at full size. */
    private static double[] refine(
            byte[] previous, byte[] current, int width, int height, int x0, int y0, int dx, int dy) {
        int size = 2 * BLOCK_HALF;
        double meanB = 0;
        for (int y = 0; y < size; y++) {
            for (int x = 0; x < size; x++) {
                meanB += current[(y0 + y) * width + x0 + x] & 0xff;
            }
        }
        meanB /= size * size;
        double meanAOffset;
        double best = Double.MAX_VALUE;
        int bestX = dx;
        int bestY = dy;
        for (int ry = dy - 1; ry <= dy + 1; ry++) {
            for (int rx = dx - 1; rx <= dx + 1; rx++) {
                if (x0 - rx < 0 || x0 - rx + size > width || y0 - ry < 0 || y0 - ry + size > height) {
                    continue;
                }
                meanAOffset = 0;
                for (int y = 0; y < size; y++) {
                    for (int x = 0; x < size; x++) {
                        meanAOffset += previous[(y0 - ry + y) * width + x0 - rx + x] & 0xff;
                    }
                }
                meanAOffset /= size * size;
                double sum = 0;
                for (int y = 0; y < size; y++) {
                    for (int x = 0; x < size; x++) {
                        double d = ((current[(y0 + y) * width + x0 + x] & 0xff) - meanB)
                                - ((previous[(y0 - ry + y) * width + x0 - rx + x] & 0xff) - meanAOffset);
                        sum += Math.abs(d);
                    }
                }
                if (sum < best) {
                    best = sum;
                    bestX = rx;
                    bestY = ry;
                }
            }
        }
        return new double[] {bestX, bestY};
    }

    /**
     * Sum of |current block - mean| - |previous block shifted back by (dx, dy) - its mean|: the
     * block of the current picture at (x0, y0) came from (x0 - dx, y0 - dy) in the previous one.
     */
    private static double sad(int[] a, int[] b, int w, int x0, int y0, int dx, int dy, int size, double meanB) {
        return sad(a, b, w, x0, y0, dx, dy, size, meanB, Double.MAX_VALUE);
    }

    /**
     * As {@link #sad(int[], int[], int, int, int, int, int, int, double)}, but a sum that has passed
     * {@code limit} is not finished: {@link Double#MAX_VALUE} comes back instead (the search wants only
     * shifts under its best so far). The terms are not negative, so the rows not summed could only add
     * to it; what is returned below the limit is the whole sum, in the same order. Most shifts of the
     * coarse search are out of the running after a few rows (the analysis spent a tenth of its CPU here).
     */
    private static double sad(
            int[] a, int[] b, int w, int x0, int y0, int dx, int dy, int size, double meanB, double limit) {
        int ax = x0 - dx;
        int ay = y0 - dy;
        if (ax < 0 || ay < 0 || ax + size > w || (ay + size) * w > a.length) {
            return Double.MAX_VALUE;
        }
        double meanA = blockMean(a, w, ax, ay, size);
        // A margin over the limit, so that rounding never turns a sum at the limit into one under it.
        double stop = limit + 1e-6 * Math.abs(limit) + 1e-9;
        double sum = 0;
        for (int y = 0; y < size; y++) {
            int rowA = (ay + y) * w + ax;
            int rowB = (y0 + y) * w + x0;
            for (int x = 0; x < size; x++) {
                sum += Math.abs((b[rowB + x] - meanB) - (a[rowA + x] - meanA));
            }
            if (sum > stop) {
                return Double.MAX_VALUE;
            }
        }
        return sum;
    }

    private static double blockMean(int[] p, int w, int x0, int y0, int size) {
        long sum = 0;
        for (int y = 0; y < size; y++) {
            int row = (y0 + y) * w + x0;
            for (int x = 0; x < size; x++) {
                sum += p[row + x];
            }
        }
        return (double) sum / (size * size);
    }

    private static double deviation(int[] p, int w, int x0, int y0, int size, double mean) {
        double sum = 0;
        for (int y = 0; y < size; y++) {
            int row = (y0 + y) * w + x0;
            for (int x = 0; x < size; x++) {
                sum += Math.abs(p[row + x] - mean);
            }
        }
        return sum / (size * size);
    }

    /** The picture at half size, each pixel the mean of a 2 x 2 square. */
    private static int[] halve(byte[] luma, int width, int height) {
        int w = width / 2;
        int h = height / 2;
        int[] out = new int[w * h];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int i = 2 * y * width + 2 * x;
                out[y * w + x] = ((luma[i] & 0xff)
                                + (luma[i + 1] & 0xff)
                                + (luma[i + width] & 0xff)
                                + (luma[i + width + 1] & 0xff)
                                + 2)
                        >> 2;
            }
        }
        return out;
    }

    private static double mean(byte[] luma) {
        long sum = 0;
        for (byte v : luma) {
            sum += v & 0xff;
        }
        return (double) sum / luma.length;
    }

    private static double median(double[] values, int n) {
        double[] sorted = Arrays.copyOf(values, n);
        Arrays.sort(sorted);
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
