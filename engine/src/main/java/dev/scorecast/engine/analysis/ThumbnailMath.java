package dev.scorecast.engine.analysis;

/** Arithmetic on frame thumbnails (see {@link FrameHistory#thumbnailLength()}); pure functions. */
final class ThumbnailMath {

    private ThumbnailMath() {}

    /** Mean absolute difference, a fraction of full scale. */
    static double distance(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += Math.abs(a[i] - b[i]);
        }
        return sum / a.length;
    }

    /** How far {@code x} is from the blend {@code (1 - alpha) a + alpha b}; mean absolute difference. */
    static double blendDistance(float[] x, float[] a, float[] b, double alpha) {
        float wa = (float) (1 - alpha);
        float wb = (float) alpha;
        double sum = 0;
        for (int i = 0; i < x.length; i++) {
            sum += Math.abs(x[i] - (wa * a[i] + wb * b[i]));
        }
        return sum / x.length;
    }

    /**
     * Where {@code x} sits on the way from {@code a} to {@code b}: 0 at {@code a}, 1 at {@code b}
     * (least squares; may fall outside [0, 1]). NaN when {@code a} and {@code b} are equal.
     */
    static double progress(float[] x, float[] a, float[] b) {
        double dot = 0;
        double norm = 0;
        for (int i = 0; i < x.length; i++) {
            double ab = b[i] - a[i];
            dot += (x[i] - a[i]) * ab;
            norm += ab * ab;
        }
        return norm > 0 ? dot / norm : Double.NaN;
    }

    /**
     * The thumbnail averaged over blocks of {@code block x block} cells (partial blocks at the
     * edges averaged over what they hold): a layout so coarse that motion inside a shot barely
     * moves it, while a change of shot still does.
     */
    static float[] pooled(float[] thumbnail, int width, int height, int block) {
        int planes = thumbnail.length / (width * height);
        int pw = (width + block - 1) / block;
        int ph = (height + block - 1) / block;
        float[] out = new float[planes * pw * ph];
        int[] counts = new int[pw * ph];
        for (int plane = 0; plane < planes; plane++) {
            int base = plane * width * height;
            int outBase = plane * pw * ph;
            for (int y = 0; y < height; y++) {
                for (int x = 0; x < width; x++) {
                    int cell = (y / block) * pw + x / block;
                    out[outBase + cell] += thumbnail[base + y * width + x];
                    if (plane == 0) {
                        counts[cell]++;
                    }
                }
            }
        }
        for (int plane = 0; plane < planes; plane++) {
            for (int cell = 0; cell < counts.length; cell++) {
                out[plane * pw * ph + cell] /= counts[cell];
            }
        }
        return out;
    }
}
