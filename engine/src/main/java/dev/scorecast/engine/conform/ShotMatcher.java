package dev.scorecast.engine.conform;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Finds each shot of a new cut in an earlier cut (issue 27): a shot is the stretch between two cuts
 * of its analysis; a new shot is the old shot whose pictures, moved by one offset, look like its own
 * all along (mean signature distance under {@link #MATCH_DISTANCE}), its pictures lying inside the
 * old shot, so a shot trimmed at either end, re-encoded, scaled or at another frame rate is still
 * found, and where it now sits in time.
 *
 * <p>The pictures alone cannot tell a fixed camera's footage apart: a tree in the wind looks the same
 * at every offset of its shot, and other footage of the same plaza looks like the old shot of it. What
 * tells them apart is how the picture changes: the signature's change over {@link #MOTION_LAG} seconds
 * (leaves, people walking) is the footage's own and lines up only at the right offset. So a shot that
 * moves (its change above {@link #STILL_MOTION}) is placed at the offset where its motion correlates
 * best with the old shot's, and found only where that correlation reaches {@link #MOTION_MATCH}. A
 * still shot fits at any offset: then the offset that keeps its head (else its tail) where the cut
 * was is taken. A cut that moved by less than a frame (another frame rate) is the same cut: the shots
 * either side keep one offset. Pure.
 */
public final class ShotMatcher {
    /** Signatures of one shot, re-encoded or scaled, differ by well under this; another shot's by far more. */
    static final double MATCH_DISTANCE = 0.045;
    /** Offsets this close in distance are one fit (a still picture): the one nearest a cut wins. */
    private static final double TIE_DISTANCE = 0.004;
    /** Pictures compared per shot. */
    private static final int SAMPLES = 40;

    private static final int COARSE_SAMPLES = 10;

    /**
     * Seconds over which a picture's change is its motion: longer than a frame of footage shot at 5 fps
     * or more (a 15 fps clip in a 30 fps video repeats each picture, so the change from one frame to the
     * next is nothing every other frame), short enough that a walker or a leaf has not moved on.
     */
    static final double MOTION_LAG = 0.2;
    /**
     * A shot whose signatures change by less than this (root mean square over {@link #MOTION_LAG}) is
     * still: a re-encoded still picture changes by 0.0000, the OpenCV sample tree in the wind (the
     * slightest motion of the real-footage benchmark, docs/EDITING.md) by 0.0013 to 0.0019.
     */
    static final double STILL_MOTION = 0.0005;
    /**
     * A moving shot is the old one only where their motions correlate at least this well. Measured on
     * the real-footage benchmark: the same footage re-encoded, trimmed, scaled or at another frame rate
     * 0.61 to 1.00 (the tree 0.61 to 0.66, every other shot 0.95 or more); other footage of the same
     * plaza from the same fixed camera at most 0.27 at any offset (and under 0.04 where it looks most
     * alike), while its pictures are as close as 0.019.
     */
    static final double MOTION_MATCH = 0.45;
    /** Motion samples per shot (at most). */
    private static final int MOTION_SAMPLES = 120;

    private ShotMatcher() {}

    /** A shot: the pictures from {@code start} to {@code end} seconds. */
    public record Shot(int index, double start, double end) {
        public double length() {
            return end - start;
        }
    }

    /**
     * Where a new shot came from: {@code old} (null for a shot the earlier cut did not have) and the
     * {@code shift} that maps an old time to the new one (new = old + shift); {@code distance} the fit
     * of the pictures, {@code motion} the correlation of their motion (NaN for a still shot), and
     * {@code frame} the longer frame of the two videos: times closer than that are one.
     */
    public record Match(Shot shot, Shot old, double shift, double distance, double motion, double frame) {
        /** A match of pictures alone (a still shot), frame-exact at 25 fps or more. */
        public Match(Shot shot, Shot old, double shift, double distance) {
            this(shot, old, shift, distance, Double.NaN, 0.02);
        }

        public boolean found() {
            return old != null;
        }

        /** The earlier cut's pictures this shot shows: from {@code start - shift} to {@code end - shift}. */
        public double oldStart() {
            return shot.start() - shift;
        }

        public double oldEnd() {
            return shot.end() - shift;
        }

        Match shifted(double to) {
            return new Match(shot, old, to, distance, motion, frame);
        }
    }

    /** The shots of a video of {@code duration} seconds cut at {@code cuts} (times of the first frame of each new shot). */
    public static List<Shot> shots(List<Double> cuts, double duration) {
        List<Shot> out = new ArrayList<>();
        double start = 0;
        for (double c : cuts.stream().sorted().toList()) {
            if (c > start + 1e-6 && c < duration - 1e-6) {
                out.add(new Shot(out.size(), start, c));
                start = c;
            }
        }
        out.add(new Shot(out.size(), start, duration));
        return out;
    }

    /** Matches every shot of the new cut against the old cut's shots. */
    public static List<Match> match(
            List<Shot> oldShots, Signatures oldPictures, List<Shot> newShots, Signatures newPictures) {
        double oldFrame = framePeriod(oldPictures);
        double newFrame = framePeriod(newPictures);
        double frame = Math.max(oldFrame, newFrame);
        List<Match> out = new ArrayList<>();
        for (Shot shot : newShots) {
            double margin = Math.min(1.5 * frame, shot.length() / 4);
            double[] samples = spread(shot.start() + margin, shot.end() - margin, SAMPLES);
            float[][] prints = new float[samples.length][];
            for (int k = 0; k < samples.length; k++) {
                prints[k] = newPictures.prints()[Math.max(0, newPictures.frameAt(samples[k]))];
            }
            Motion motion = Motion.of(newPictures, shot.start() + margin, shot.end() - margin);
            Match best = new Match(shot, null, 0, Double.MAX_VALUE, Double.NaN, frame);
            for (Shot old : oldShots) {
                Match m = fit(shot, old, samples, prints, motion, oldPictures, frame);
                if (m != null && better(m, best)) {
                    best = m;
                }
            }
            boolean found = best.old() != null
                    && best.distance() < MATCH_DISTANCE
                    && (Double.isNaN(best.motion()) || best.motion() >= MOTION_MATCH);
            out.add(found ? best : new Match(shot, null, 0, best.distance(), best.motion(), frame));
        }
        return sameCuts(out);
    }

    /** A moving shot's best old shot is the one whose motion follows it best; a still one's the closest picture. */
    private static boolean better(Match m, Match best) {
        if (best.old() == null) {
            return true;
        }
        if (!Double.isNaN(m.motion()) && !Double.isNaN(best.motion())) {
            return m.motion() > best.motion();
        }
        return m.distance() < best.distance();
    }

    /**
     * A cut that moved by less than a frame is the same cut (a cut lands on the frame grid of its
     * video: 33.667 s at 30 fps is 33.640 s at 25): where a new shot shows the old shot that followed
     * the one before it, starting where that one ends, within a frame of the old offset, it keeps the
     * offset of the shot before, so the two play on in the old cut's time as one stretch.
     */
    private static List<Match> sameCuts(List<Match> in) {
        List<Match> out = new ArrayList<>(in);
        for (int i = 1; i < out.size(); i++) {
            Match before = out.get(i - 1);
            Match m = out.get(i);
            if (before.found()
                    && m.found()
                    && m.old().index() == before.old().index() + 1
                    && Math.abs(m.shift() - before.shift()) < m.frame() - 1e-9
                    && Math.abs(m.shift() - before.shift()) > 1e-9) {
                out.set(i, m.shifted(before.shift()));
            }
        }
        return out;
    }

    /**
     * A shot's motion: its signatures' change over {@link #MOTION_LAG} at up to {@link #MOTION_SAMPLES}
     * of its frames ({@code times}, from {@code from} to {@code to} less the lag); {@code still} when it
     * changes by less than {@link #STILL_MOTION}.
     */
    record Motion(double[] times, float[][] change, boolean still) {
        static Motion of(Signatures pictures, double from, double to) {
            List<Double> times = new ArrayList<>();
            for (double t : pictures.times()) {
                if (t >= from - 1e-6 && t + MOTION_LAG <= to + 1e-6) {
                    times.add(t);
                }
            }
            int n = Math.min(MOTION_SAMPLES, times.size());
            double[] at = new double[n];
            float[][] change = new float[n][];
            double energy = 0;
            for (int k = 0; k < n; k++) {
                at[k] = times.get(n == 1 ? 0 : (int) Math.round(k * (times.size() - 1) / (double) (n - 1)));
                change[k] = change(pictures, at[k], pictures.frameAt(at[k]));
                for (float v : change[k]) {
                    energy += v * v;
                }
            }
            // Too few pictures to tell motion from noise: a shot of under half a second is judged by its pictures.
            boolean still = n < 5 || Math.sqrt(energy / (n * (double) change[0].length)) < STILL_MOTION;
            return new Motion(at, change, still);
        }

        /** The change of the picture shown at {@code t} (frame {@code at}) over the lag. */
        static float[] change(Signatures pictures, double t, int at) {
            float[] a = pictures.prints()[Math.max(0, at)];
            float[] b = pictures.prints()[Math.max(0, pictures.frameAt(t + MOTION_LAG))];
            float[] out = new float[a.length];
            for (int i = 0; i < a.length; i++) {
                out[i] = b[i] - a[i];
            }
            return out;
        }

        /** How well the old shot's motion at {@code shift} follows this one's: the cosine of the two changes, over every value. */
        double correlation(double shift, Signatures old, Shot oldShot) {
            double ab = 0;
            double aa = 0;
            double bb = 0;
            // (An old shot shorter than the lag, a flash frame, is read from its start: fit() rejects such a
            // shot before this for any shot long enough to have motion, so this only keeps clamp's bounds in order.)
            double last = Math.max(oldShot.start(), oldShot.end() - MOTION_LAG - 1e-6);
            for (int k = 0; k < times.length; k++) {
                double t = Math.clamp(times[k] - shift, oldShot.start(), last);
                float[] b = change(old, t, old.frameAt(t));
                for (int i = 0; i < b.length; i++) {
                    ab += change[k][i] * b[i];
                    aa += change[k][i] * change[k][i];
                    bb += b[i] * b[i];
                }
            }
            return aa == 0 || bb == 0 ? 0 : ab / Math.sqrt(aa * bb);
        }
    }

    /** The best offset of {@code shot}'s pictures inside {@code old}, or null when the shot does not fit inside it. */
    private static Match fit(
            Shot shot,
            Shot old,
            double[] samples,
            float[][] prints,
            Motion motion,
            Signatures oldPictures,
            double frame) {
        double lowest = samples[samples.length - 1] - old.end();
        double highest = samples[0] - old.start();
        if (lowest > highest + frame) {
            return null;
        }
        double head = shot.start() - old.start();
        double tail = shot.end() - old.end();
        List<Double> candidates = new ArrayList<>();
        // Offsets a whole number of old frames from the head's: each lines a frame of the new shot up with
        // a frame of the old one where both videos' frames start at their cuts.
        double oldStep = framePeriod(oldPictures);
        for (long k = (long) Math.ceil((lowest - head) / oldStep - 1e-9); head + k * oldStep <= highest + 1e-9; k++) {
            candidates.add(head + k * oldStep);
        }
        for (double d : new double[] {head, tail}) {
            if (d >= lowest - frame && d <= highest + frame) {
                candidates.add(d);
            }
        }
        int coarseStride = Math.max(1, samples.length / COARSE_SAMPLES);
        double[] coarse = new double[candidates.size()];
        for (int c = 0; c < coarse.length; c++) {
            coarse[c] = cost(candidates.get(c), samples, prints, oldPictures, old, coarseStride);
        }
        double coarseBest = Arrays.stream(coarse).min().orElse(Double.MAX_VALUE);
        double bestCost = Double.MAX_VALUE;
        List<double[]> fine = new ArrayList<>();
        for (int c = 0; c < coarse.length; c++) {
            if (coarse[c] <= coarseBest + 0.02) {
                double full = cost(candidates.get(c), samples, prints, oldPictures, old, 1);
                fine.add(new double[] {candidates.get(c), full});
                bestCost = Math.min(bestCost, full);
            }
        }
        if (fine.isEmpty()) {
            return null;
        }
        if (!motion.still()) {
            // A moving shot sits where its motion lines up, among the offsets whose pictures fit.
            double chosen = Double.NaN;
            double bestMotion = -2;
            double distance = Double.MAX_VALUE;
            for (double[] f : fine) {
                if (f[1] < MATCH_DISTANCE) {
                    double m = motion.correlation(f[0], oldPictures, old);
                    if (m > bestMotion) {
                        bestMotion = m;
                        chosen = f[0];
                        distance = f[1];
                    }
                }
            }
            if (Double.isNaN(chosen)) {
                return new Match(shot, old, fine.getFirst()[0], bestCost, -1, frame);
            }
            return new Match(shot, old, snap(chosen, head, tail, frame), distance, bestMotion, frame);
        }
        // Among offsets that fit equally well (a still picture), the one that keeps a cut where it was.
        double chosen = Double.NaN;
        double nearest = Double.MAX_VALUE;
        for (double[] f : fine) {
            if (f[1] <= bestCost + TIE_DISTANCE) {
                // The head before the tail where both are kept exactly (a still shot cut shorter at both ends).
                double away = Math.min(Math.abs(f[0] - head), Math.abs(f[0] - tail) + 1e-6);
                if (away < nearest - 1e-9) {
                    nearest = away;
                    chosen = f[0];
                }
            }
        }
        return new Match(shot, old, snap(chosen, head, tail, frame), bestCost, Double.NaN, frame);
    }

    /**
     * Cut times are frame-exact in both analyses: an offset within a frame of a kept cut is that cut's
     * (the offsets tried step by the old video's frames, and at another frame rate the pictures that
     * line up best can be a frame of the old video off the cut).
     */
    private static double snap(double shift, double head, double tail, double frame) {
        if (Math.abs(shift - head) < frame - 1e-9) {
            return head;
        }
        if (Math.abs(shift - tail) < frame - 1e-9) {
            return tail;
        }
        return shift;
    }

    private static double cost(
            double shift, double[] samples, float[][] prints, Signatures oldPictures, Shot old, int stride) {
        double sum = 0;
        int n = 0;
        for (int k = 0; k < samples.length; k += stride) {
            double t = samples[k] - shift;
            int f = oldPictures.frameAt(Math.clamp(t, old.start(), old.end() - 1e-6));
            if (f < 0) {
                return Double.MAX_VALUE;
            }
            sum += Signatures.distance(prints[k], oldPictures.prints()[f]);
            n++;
        }
        return n == 0 ? Double.MAX_VALUE : sum / n;
    }

    private static double[] spread(double from, double to, int count) {
        if (to <= from) {
            return new double[] {(from + to) / 2};
        }
        double[] out = new double[count];
        for (int k = 0; k < count; k++) {
            out[k] = from + (to - from) * k / (count - 1);
        }
        return out;
    }

    /** The median time between pictures (1/25 s when there are too few to tell). */
    static double framePeriod(Signatures s) {
        if (s.times().length < 3) {
            return 0.04;
        }
        double[] d = new double[s.times().length - 1];
        for (int i = 0; i < d.length; i++) {
            d[i] = s.times()[i + 1] - s.times()[i];
        }
        Arrays.sort(d);
        return Math.max(1e-3, d[d.length / 2]);
    }
}
