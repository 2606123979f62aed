package dev.scorecast.engine.analysis;

import java.util.ArrayDeque;

/**
 * The motion curves, per hop of time, each in [0, 1]: how fast the camera moves, how fast things
 * move within the picture, how much the light flickers, and the motion the music follows, made of
 * the three. Jumps that stand out from the frames before (cuts, flashes) are not motion and are
 * left out. docs/ANALYSIS.md gives the scales.
 *
 * <p><b>Camera</b>: the shift most of the picture shares ({@link MotionField}), in picture widths a
 * second on a logarithmic scale. <b>Flicker</b>: the change of mean brightness, in full scales a
 * second, on a logarithmic scale.
 *
 * <p><b>Subject</b>: how fast the picture's own content changes once the camera's shift and the
 * light's change are taken away. The change between two pictures {@code k} frames apart grows
 * with {@code k} and then stops growing, once what moved has left where it was: modelled as
 * {@code D(k) = S (1 - x^k)}, read from two distances (the picture before, and one about
 * {@link #LONG_FRAMES} frames back). {@code lambda = -ln x} is how quickly the change completes
 * per frame: a slow pan or a drift completes over many frames (lambda near 0), a chase in one
 * (lambda large). Unlike the size of the change (the mean difference, which saturates once moving
 * edges have passed each other, so that five times the speed read a fifth more, issue 26), lambda
 * keeps growing with speed, and it does not depend on how much of the picture moves. The subject
 * value is lambda on a logarithmic scale, times how much changed over the longer distance
 * (a few specks moving fast are not a busy picture).
 *
 * <p>The motion the music follows is the largest of subject motion, 0.8 x camera motion (a pan
 * moves everything but is calmer than action) and 0.7 x flicker. Where the analysis decodes
 * reference pictures only, pictures are one to a few frames apart; distances are counted in frames
 * and the camera's search range grows with them, so the values read the same either way.
 */
final class MotionDetector implements FrameDetector {
    private static final double JUMP_RATIO = 3;
    /** Pairs farther apart than this many of the shortest interval (after a gap) are not measured. */
    private static final int MAX_FRAMES_APART = 4;
    /** The longer of the two distances the subject's change is read at, in frames. */
    static final int LONG_FRAMES = 8;
    /** Pictures kept for that: enough for {@link #LONG_FRAMES} with some to spare. */
    private static final int HISTORY = 12;
    /** Luma levels of difference that are noise (sensor, compression), not change. */
    static final double NOISE_LEVELS = 3;
    /** Mean change (levels above noise) over the longer distance under which nothing moved. */
    static final double STILL_LEVELS = 0.02;
    /** Mean change over the longer distance at which the picture counts as fully busy. */
    static final double BUSY_LEVELS = 1.5;

    static final double SPEED_FLOOR = 0.02;
    static final double SPEED_CEILING = 3;
    static final double LAMBDA_FLOOR = 0.02;
    static final double LAMBDA_CEILING = 4;
    static final double FLICKER_FLOOR = 0.05;
    static final double FLICKER_CEILING = 5;
    static final double CAMERA_WEIGHT = 0.8;
    static final double FLICKER_WEIGHT = 0.7;
    private static final int FIT_STEPS = 40;

    private final double hopSeconds;
    private final HopSeries motion;
    private final HopSeries camera;
    private final HopSeries subject;
    private final HopSeries flicker;
    private final double minJump;
    private double shortestInterval = Double.POSITIVE_INFINITY;
    /** The pictures of this shot so far, latest last; emptied at a jump. */
    private final ArrayDeque<Past> history = new ArrayDeque<>();

    private double previousDelta = Double.NaN;
    private long lastMeasuredHop = -1;

    private record Past(byte[] luma, double timeSeconds) {}

    /**
     * @param hopSeconds the curve's time step
     * @param minJump    the least content change that may be a cut (left out as a jump)
     */
    MotionDetector(double hopSeconds, double minJump) {
        this.hopSeconds = hopSeconds;
        this.motion = new HopSeries(hopSeconds);
        this.camera = new HopSeries(hopSeconds);
        this.subject = new HopSeries(hopSeconds);
        this.flicker = new HopSeries(hopSeconds);
        this.minJump = minJump;
    }

    @Override
    public void accept(Frame frame) {
        double interval = frame.intervalSeconds();
        boolean jump = false;
        if (!Double.isNaN(interval)) {
            double delta = frame.contentDelta();
            jump = delta >= minJump
                    && !Double.isNaN(previousDelta)
                    && delta >= JUMP_RATIO * Math.max(previousDelta, 0.004);
            previousDelta = delta;
            if (interval > 0) {
                shortestInterval = Math.min(shortestInterval, interval);
            }
        }
        if (jump) {
            history.clear(); // pairs across a cut say nothing about motion
        }
        long hop = (long) Math.floor(frame.timeSeconds() / hopSeconds + 1e-9);
        if (!history.isEmpty() && interval > 0 && hop != lastMeasuredHop) {
            int frames = frames(frame.timeSeconds() - history.getLast().timeSeconds());
            if (frames <= MAX_FRAMES_APART) {
                measure(frame, frames);
                lastMeasuredHop = hop;
            }
        }
        remember(frame);
    }

    private void measure(Frame frame, int shortFrames) {
        Past before = history.getLast();
        int w = frame.width();
        int h = frame.height();
        MotionField.Motion m = MotionField.between(before.luma(), frame.luma(), w, h, shortFrames);
        double seconds = frame.timeSeconds() - before.timeSeconds();
        double cameraValue = scale(m.cameraPixels() / w / seconds, SPEED_FLOOR, SPEED_CEILING);
        double flickerValue = scale(m.flickerLevels() / 255 / seconds, FLICKER_FLOOR, FLICKER_CEILING);
        double t = frame.timeSeconds();
        camera.add(t, cameraValue);
        flicker.add(t, flickerValue);
        double subjectValue = Double.NaN;
        Past far = farPicture(frame.timeSeconds(), shortFrames);
        if (far != null) {
            int longFrames = frames(frame.timeSeconds() - far.timeSeconds());
            double perFrameX = m.cameraX() / shortFrames;
            double perFrameY = m.cameraY() / shortFrames;
            double near = change(before.luma(), frame.luma(), w, h, perFrameX * shortFrames, perFrameY * shortFrames);
            double away = change(far.luma(), frame.luma(), w, h, perFrameX * longFrames, perFrameY * longFrames);
            subjectValue = subjectValue(near, shortFrames, away, longFrames);
            subject.add(t, subjectValue);
        }
        if (!Double.isNaN(subjectValue)) {
            // A hop without a picture far enough back (just after a cut) takes its neighbours' value.
            motion.add(t, Math.max(subjectValue, Math.max(CAMERA_WEIGHT * cameraValue, FLICKER_WEIGHT * flickerValue)));
        }
    }

    /**
     * The subject value from the change {@code near} over {@code g} frames and {@code away} over
     * {@code gl} frames (see the class comment): lambda on its logarithmic scale, times how busy.
     */
    static double subjectValue(double near, int g, double away, int gl) {
        if (away < STILL_LEVELS) {
            return 0;
        }
        double growth = Math.max((double) g / gl, Math.min(1, near / away));
        // (1 - x^g) / (1 - x^gl) falls from g/gl (x near 1) to 1 (x = 0) as x goes 1 -> 0.
        double lo = 0;
        double hi = 1;
        for (int step = 0; step < FIT_STEPS; step++) {
            double x = (lo + hi) / 2;
            double ratio = (1 - Math.pow(x, g)) / (1 - Math.pow(x, gl));
            if (ratio > growth) {
                lo = x;
            } else {
                hi = x;
            }
        }
        double x = Math.max(1e-6, (lo + hi) / 2);
        double lambda = -Math.log(x);
        double busy = Math.min(1, Math.sqrt(away / BUSY_LEVELS));
        return busy * scale(lambda, LAMBDA_FLOOR, LAMBDA_CEILING);
    }

    /** The picture about {@link #LONG_FRAMES} frames back (at least twice the short distance), or null. */
    private Past farPicture(double now, int shortFrames) {
        Past best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (Past p : history) {
            int frames = frames(now - p.timeSeconds());
            if (frames >= 2 * shortFrames
                    && frames <= LONG_FRAMES + MAX_FRAMES_APART
                    && Math.abs(frames - LONG_FRAMES) < bestDistance) {
                best = p;
                bestDistance = Math.abs(frames - LONG_FRAMES);
            }
        }
        return best;
    }

    /**
     * Mean difference above noise between {@code current} and {@code earlier} moved by the camera's
     * shift {@code (dx, dy)}, each picture's mean brightness taken away (flicker is not change).
     */
    static double change(byte[] earlier, byte[] current, int width, int height, double dx, double dy) {
        int sx = (int) Math.round(dx);
        int sy = (int) Math.round(dy);
        int x0 = Math.max(0, sx);
        int x1 = Math.min(width, width + sx);
        int y0 = Math.max(0, sy);
        int y1 = Math.min(height, height + sy);
        if (x1 - x0 < width / 2 || y1 - y0 < height / 2) {
            return 0; // the shift left too little overlap to compare
        }
        long sumA = 0;
        long sumB = 0;
        for (int y = y0; y < y1; y++) {
            for (int x = x0; x < x1; x++) {
                sumB += current[y * width + x] & 0xff;
                sumA += earlier[(y - sy) * width + x - sx] & 0xff;
            }
        }
        int count = (x1 - x0) * (y1 - y0);
        double offset = (double) (sumB - sumA) / count;
        double sum = 0;
        for (int y = y0; y < y1; y++) {
            for (int x = x0; x < x1; x++) {
                double d = Math.abs(
                        (current[y * width + x] & 0xff) - (earlier[(y - sy) * width + x - sx] & 0xff) - offset);
                if (d > NOISE_LEVELS) {
                    sum += d - NOISE_LEVELS;
                }
            }
        }
        return sum / count;
    }

    /** {@code ln(1 + v / floor) / ln(1 + ceiling / floor)}, clamped to [0, 1]. */
    static double scale(double v, double floor, double ceiling) {
        if (!(v > 0)) {
            return 0;
        }
        return Math.min(1, Math.log1p(v / floor) / Math.log1p(ceiling / floor));
    }

    private int frames(double seconds) {
        return Math.max(1, (int) Math.round(seconds / shortestInterval));
    }

    private void remember(Frame frame) {
        byte[] copy;
        if (history.size() >= HISTORY) {
            Past oldest = history.removeFirst();
            copy = oldest.luma().length == frame.luma().length ? oldest.luma() : new byte[frame.luma().length];
        } else {
            copy = new byte[frame.luma().length];
        }
        System.arraycopy(frame.luma(), 0, copy, 0, copy.length);
        history.addLast(new Past(copy, frame.timeSeconds()));
    }

    /** One value per hop, {@code hops} of them: the motion the music follows. */
    double[] curve(int hops) {
        return motion.means(hops);
    }

    double[] camera(int hops) {
        return camera.means(hops);
    }

    double[] subject(int hops) {
        return subject.means(hops);
    }

    double[] flicker(int hops) {
        return flicker.means(hops);
    }
}
