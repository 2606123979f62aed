package dev.scorecast.engine.analysis;

/**
 * The motion curve: how much the picture changes from frame to frame (mean absolute luma
 * difference), per hop of time, in [0, 1]. The change is counted per 1/30 s, so footage at 60
 * fps or with dropped frames reads like the same footage at 30 fps. Jumps that stand out from the
 * frames before (cuts, flashes) are not motion and are left out.
 */
final class MotionDetector implements FrameDetector {
    private static final double REFERENCE_INTERVAL_SECONDS = 1 / 30.0;
    /** Mean luma change per reference interval that maps to 1 - 1/e (about 0.63). */
    private static final double CHANGE_SCALE = 0.05;
    private static final double MAX_INTERVAL_FACTOR = 4;
    private static final double JUMP_RATIO = 3;

    private final HopSeries motion;
    private final double minJump;
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
            return;
        }
        double delta = frame.contentDelta();
        boolean jump = delta >= minJump && !Double.isNaN(previousDelta) && delta >= JUMP_RATIO * Math.max(previousDelta, 0.004);
        previousDelta = delta;
        if (jump) {
            return;
        }
        double factor = interval > 0
                ? Math.max(1 / MAX_INTERVAL_FACTOR, Math.min(MAX_INTERVAL_FACTOR, REFERENCE_INTERVAL_SECONDS / interval))
                : 1;
        double change = frame.lumaDelta() * factor;
        motion.add(frame.timeSeconds(), 1 - Math.exp(-change / CHANGE_SCALE));
    }

    /** One value per hop, {@code hops} of them. */
    double[] curve(int hops) {
        return motion.means(hops);
    }
}
