package dev.scorecast.engine.analysis;

import dev.scorecast.engine.media.GapScreen;
import dev.scorecast.engine.media.VideoFrame;
import java.util.Arrays;

/**
 * Where the picture pass, decoding reference pictures only (or I and P pictures only), must
 * decode the pictures in between too: wherever the change between two consecutive decoded
 * pictures stands out from the changes of the pairs just before it, or is large outright. A hard
 * cut must be found on its exact frame, and one that falls on a passed-over picture shows only as
 * such a jump across the gap; fades, dissolves and motion are slow and are measured well enough
 * from the decoded pictures alone.
 *
 * <p>The screen is deliberately eager: its ratio is half the cut detector's and is taken against
 * the median of the last four pairs (so the jump back out of a flash stands out as much as the
 * jump into it), its floors are a third of the detector's least cut, and it looks at two measures (pixel change over all three colour
 * channels, and the change of a coarse 16 x 9 layout). Asking for a gap costs a seek and a few
 * reference pictures decoded twice; missing one would put a cut a frame late.
 */
final class ChangeScreen implements GapScreen {
    /** A pair is looked into when its change is this many times the median of the recent pairs'. */
    static final double RATIO = 1.5;
    /** Mean absolute channel change below which nothing is looked into (compression noise). */
    static final double PIXEL_FLOOR = 0.007;

    static final double LAYOUT_FLOOR = 0.01;
    /** Pairs remembered for the mean. */
    private static final int RECENT = 4;

    private static final int GRID_WIDTH = 16;
    private static final int GRID_HEIGHT = 9;

    private final double[] recentPixel = new double[RECENT];
    private final double[] recentLayout = new double[RECENT];
    private int pairs;
    private float[] layoutBefore;
    private float[] layoutAfter;
    private int[] cellOf;
    private int[] cellCount;
    private long beforeIndex = -1;

    @Override
    public boolean decodeGap(VideoFrame before, VideoFrame after, int undecoded) {
        prepare(before.width(), before.height());
        if (before.index() != beforeIndex) {
            layout(before.rgb(), layoutBefore);
        }
        layout(after.rgb(), layoutAfter);
        double pixel = pixelChange(before.rgb(), after.rgb());
        double layout = distance(layoutBefore, layoutAfter);
        // Compared per picture of the pair's span: pairs span one picture to four (a gap just
        // decoded, a run of B pictures passed over), and a long span of steady motion must not
        // stand out against the short ones before it. The floors stay on the whole change.
        int span = undecoded + 1;
        boolean look = undecoded > 0
                && (standsOut(pixel, span, PIXEL_FLOOR, recentPixel)
                        || standsOut(layout, span, LAYOUT_FLOOR, recentLayout));
        recentPixel[pairs % RECENT] = pixel / span;
        recentLayout[pairs % RECENT] = layout / span;
        pairs++;
        float[] swap = layoutBefore; // the next pair starts from this one's second picture
        layoutBefore = layoutAfter;
        layoutAfter = swap;
        beforeIndex = after.index();
        return look;
    }

    private boolean standsOut(double change, int span, double floor, double[] recent) {
        if (change < floor) {
            return false;
        }
        int n = Math.min(pairs, RECENT);
        if (n == 0) {
            return true;
        }
        double[] sorted = Arrays.copyOf(recent, n);
        Arrays.sort(sorted);
        // The median, so that one jump (into a flash, say) does not hide the jump back out of it.
        double typical = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        return change / span >= RATIO * typical;
    }

    private static double pixelChange(byte[] a, byte[] b) {
        long sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += Math.abs((a[i] & 0xff) - (b[i] & 0xff));
        }
        return sum / (255.0 * a.length);
    }

    private void prepare(int width, int height) {
        if (cellOf != null && cellOf.length == width * height) {
            return;
        }
        int cells = GRID_WIDTH * GRID_HEIGHT;
        cellOf = new int[width * height];
        cellCount = new int[cells];
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                int cell = y * GRID_HEIGHT / height * GRID_WIDTH + x * GRID_WIDTH / width;
                cellOf[y * width + x] = cell;
                cellCount[cell]++;
            }
        }
        layoutBefore = new float[3 * cells];
        layoutAfter = new float[3 * cells];
        beforeIndex = -1;
    }

    private void layout(byte[] rgb, float[] out) {
        Arrays.fill(out, 0);
        for (int p = 0, i = 0; p < cellOf.length; p++, i += 3) {
            int c = 3 * cellOf[p];
            out[c] += rgb[i] & 0xff;
            out[c + 1] += rgb[i + 1] & 0xff;
            out[c + 2] += rgb[i + 2] & 0xff;
        }
        for (int cell = 0; cell < cellCount.length; cell++) {
            float scale = 1f / (255f * Math.max(1, cellCount[cell]));
            out[3 * cell] *= scale;
            out[3 * cell + 1] *= scale;
            out[3 * cell + 2] *= scale;
        }
    }

    private static double distance(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += Math.abs(a[i] - b[i]);
        }
        return sum / a.length;
    }
}
