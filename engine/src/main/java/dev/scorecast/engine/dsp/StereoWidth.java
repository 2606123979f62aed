package dev.scorecast.engine.dsp;

/**
 * Stereo width by mid/side, in place: the side (L - R) scaled by {@code width} (0 = mono,
 * 1 = untouched, up to 2 = twice as wide), the mid kept. A width change glides over about 20 ms.
 * Processes channels 0 and 1; a mono input is left as it is.
 */
public final class StereoWidth implements BlockProcessor {

    private final double smoothing;
    private double width;
    private double target;

    public StereoWidth(double width, int rate) {
        check(width);
        this.width = width;
        this.target = width;
        this.smoothing = Smoothing.coefficient(20, rate);
    }

    public void setWidth(double width) {
        check(width);
        this.target = width;
    }

    private static void check(double width) {
        if (!(width >= 0 && width <= 2)) {
            throw new IllegalArgumentException("stereo width must be 0 to 2, was " + width);
        }
    }

    @Override
    public void process(float[][] channels, int offset, int frames) {
        if (channels.length < 2 || (width == 1 && target == 1)) {
            return;
        }
        float[] l = channels[0];
        float[] r = channels[1];
        double w = width;
        for (int i = offset, end = offset + frames; i < end; i++) {
            w += (target - w) * smoothing;
            double mid = 0.5 * (l[i] + r[i]);
            double side = 0.5 * (l[i] - r[i]) * w;
            l[i] = (float) (mid + side);
            r[i] = (float) (mid - side);
        }
        width = Math.abs(w - target) < 1e-9 ? target : w;
    }
}
