package dev.scorecast.engine.analysis;

/**
 * The motion curve: how much the picture changes from frame to frame (mean absolute luma
 * difference), per hop of time, in [0, 1]. The change is counted per 1/30 s, so footage at 60
 * fps or with dropped frames reads like the same footage at 30 fps. Jumps that stand out from the
 * frames before (cuts, flashes) are not motion and are left out.
 *
 * <p>Where the analysis decodes reference pictures only, consecutive decoded pictures are one or
 * two frames apart, sometimes for seconds on end. A change over two frames is not twice the change
 * over one: busy texture that is new every frame differs as much after two frames as after one,
 * while a slow pan differs twice as much. Which of the two a wider pair is, is read from how the
 * change grows with the distance: with the change over {@code g} frames and over {@code g + h}
 * frames (this pair and the one before it together), the change is modelled as
 * {@code D(k) = S (1 - x^k)}, which runs from linear growth (x near 1) to none (x near 0), and the
 * one-frame change {@code D(1)} is read off the fitted curve. Noise that does not grow with the
 * distance comes out as the same noise, as in a full decode.
 */
final class MotionDetector implements FrameDetector {
    private static final double REFERENCE_INTERVAL_SECONDS = 1 / 30.0;
    /** Mean luma change per reference interval that maps to 1 - 1/e (about 0.63). */
    private static final double CHANGE_SCALE = 0.05;
    private static final double MAX_INTERVAL_FACTOR = 4;
    private static final double JUMP_RATIO = 3;

    private static final double ADJACENT_TOLERANCE = 1.5;

    private static final int FIT_STEPS = 30;

    private final HopSeries motion;
    private final double minJump;
    private double shortestInterval = Double.POSITIVE_INFINITY;
    private byte[] lumaBefore;      // the previous frame's luma
    private byte[] lumaTwoBefore;   // the one before that, or null after a jump
    private double intervalBefore = Double.NaN;
    private double previousDelta = Double.NaN;

    /**
     * @param hopSeconds the curve's time step
     * @param minJump    the least content change that may be a cut (left out as a jump)
     */
    MotionDetector(double hopSeconds, double minJump) {
        this.motion = new HopSeries(hopSeconds);
        this.minJump = minJump;
    }

    @Override
    public void accept(Frame frame) {
        double interval = frame.intervalSeconds();
        if (Double.isNaN(interval)) {
            remember(frame, interval, false);
            return;
        }
        double delta = frame.contentDelta();
        boolean jump = delta >= minJump && !Double.isNaN(previousDelta) && delta >= JUMP_RATIO * Math.max(previousDelta, 0.004);
        previousDelta = delta;
        if (interval > 0) {
            shortestInterval = Math.min(shortestInterval, interval);
        }
        if (!jump) {
            double perFrame = frame.lumaDelta();
            double spacing = interval;
            if (interval > ADJACENT_TOLERANCE * shortestInterval) {
                perFrame = oneFrameChange(frame, interval);
                spacing = shortestInterval;
            }
            double factor = spacing > 0
                    ? Math.max(1 / MAX_INTERVAL_FACTOR, Math.min(MAX_INTERVAL_FACTOR, REFERENCE_INTERVAL_SECONDS / spacing))
                    : 1;
            motion.add(frame.timeSeconds(), 1 - Math.exp(-perFrame * factor / CHANGE_SCALE));
        }
        remember(frame, interval, jump);
    }

    /** The change over one frame interval, estimated for a pair {@code interval} apart (see the class comment). */
    private double oneFrameChange(Frame frame, double interval) {
        int g = frames(interval);
        double overG = frame.lumaDelta();
        if (lumaTwoBefore == null || Double.isNaN(intervalBefore) || overG <= 0) {
            return overG / g;
        }
        int gh = g + frames(intervalBefore);
        double overGh = meanAbsoluteDifference(lumaTwoBefore, frame.luma());
        double growth = Math.max(1, Math.min((double) gh / g, overGh / overG));
        double lo = 0;
        double hi = 1;
        for (int step = 0; step < FIT_STEPS; step++) { // (1 - x^gh) / (1 - x^g) rises from 1 to gh/g as x goes 0 -> 1
            double x = (lo + hi) / 2;
            if ((1 - Math.pow(x, gh)) / (1 - Math.pow(x, g)) < growth) {
                lo = x;
            } else {
                hi = x;
            }
        }
        double x = (lo + hi) / 2;
        return overG * (1 - x) / (1 - Math.pow(x, g));
    }

    private int frames(double interval) {
        return Math.max(1, (int) Math.round(interval / shortestInterval));
    }

    private void remember(Frame frame, double interval, boolean jump) {
        byte[] luma = frame.luma();
        if (lumaBefore == null) {
            lumaBefore = new byte[luma.length];
            lumaTwoBefore = null;
        } else {
            if (lumaTwoBefore == null) {
                lumaTwoBefore = new byte[luma.length];
            }
            byte[] swap = lumaTwoBefore;
            lumaTwoBefore = lumaBefore;
            lumaBefore = swap;
        }
        System.arraycopy(luma, 0, lumaBefore, 0, luma.length);
        if (jump || Double.isNaN(interval)) {
            lumaTwoBefore = null; // a pair across a cut says nothing about motion
        }
        intervalBefore = interval;
    }

    private static double meanAbsoluteDifference(byte[] a, byte[] b) {
        long sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += Math.abs((a[i] & 0xff) - (b[i] & 0xff));
        }
        return sum / (255.0 * a.length);
    }

    /** One value per hop, {@code hops} of them. */
    double[] curve(int hops) {
        return motion.means(hops);
    }
}
