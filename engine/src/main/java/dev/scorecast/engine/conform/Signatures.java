package dev.scorecast.engine.conform;

import dev.scorecast.engine.media.FrameSource;
import dev.scorecast.engine.media.VideoFrame;
import java.util.ArrayList;
import java.util.List;

/**
 * A video's pictures as small signatures, one per frame (issue 27's shot fingerprints): the mean
 * colour of each cell of a {@value #COLUMNS} x {@value #ROWS} grid over the picture, so the same
 * shot re-encoded, scaled or at another frame rate gives nearly the same signature at the same
 * moment, while another shot does not. {@code times} are the frames' presentation times.
 */
public record Signatures(double[] times, float[][] prints) {
    static final int COLUMNS = 8;
    static final int ROWS = 6;

    /** Reads every picture {@code source} delivers (the caller opens it small: 32 to 64 pixels wide is plenty). */
    public static Signatures read(FrameSource source) {
        VideoFrame frame = new VideoFrame(source.width(), source.height());
        List<Double> times = new ArrayList<>();
        List<float[]> prints = new ArrayList<>();
        while (source.read(frame)) {
            times.add(frame.timeSeconds());
            prints.add(of(frame.rgb(), frame.width(), frame.height()));
        }
        double[] t = new double[times.size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = times.get(i);
        }
        return new Signatures(t, prints.toArray(float[][]::new));
    }

    /** The signature of one packed RGB picture: per cell and channel the mean, 0 to 1. */
    static float[] of(byte[] rgb, int width, int height) {
        float[] sums = new float[COLUMNS * ROWS * 3];
        int[] counts = new int[COLUMNS * ROWS];
        for (int y = 0; y < height; y++) {
            int row = Math.min(ROWS - 1, y * ROWS / height);
            for (int x = 0; x < width; x++) {
                int cell = row * COLUMNS + Math.min(COLUMNS - 1, x * COLUMNS / width);
                int p = (y * width + x) * 3;
                sums[cell * 3] += rgb[p] & 0xFF;
                sums[cell * 3 + 1] += rgb[p + 1] & 0xFF;
                sums[cell * 3 + 2] += rgb[p + 2] & 0xFF;
                counts[cell]++;
            }
        }
        for (int c = 0; c < counts.length; c++) {
            for (int k = 0; k < 3; k++) {
                sums[c * 3 + k] = counts[c] == 0 ? 0 : sums[c * 3 + k] / counts[c] / 255f;
            }
        }
        return sums;
    }

    /** The index of the frame shown at {@code t} (the last one starting at or before it), or -1 before the first. */
    int frameAt(double t) {
        int lo = 0;
        int hi = times.length - 1;
        if (hi < 0 || t < times[0] - 1e-6) {
            return -1;
        }
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (times[mid] <= t + 1e-6) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** Mean absolute difference of two signatures, 0 (equal) to 1. */
    static double distance(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += Math.abs(a[i] - b[i]);
        }
        return sum / a.length;
    }
}
