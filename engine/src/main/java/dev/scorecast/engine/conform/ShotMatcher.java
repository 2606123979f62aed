package dev.scorecast.engine.conform;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Finds each shot of a new cut in an earlier cut (issue 27): a shot is the stretch between two cuts
 * of its analysis; a new shot is the old shot whose pictures, moved by one offset, look like its own
 * all along (mean signature distance under {@link #MATCH_DISTANCE}), its pictures lying inside the
 * old shot, so a shot trimmed at either end, re-encoded, scaled or at another frame rate is still
 * found, and where it now sits in time. A still shot fits at any offset: then the offset that keeps
 * its head (else its tail) where the cut was is taken. Pure.
 */
public final class ShotMatcher {
    /** Signatures of one shot, re-encoded or scaled, differ by well under this; another shot's by far more. */
    static final double MATCH_DISTANCE = 0.045;
    /** Offsets this close in distance are one fit (a still picture): the one nearest a cut wins. */
    private static final double TIE_DISTANCE = 0.004;
    /** Pictures compared per shot. */
    private static final int SAMPLES = 40;

    private static final int COARSE_SAMPLES = 10;

    private ShotMatcher() {}

    /** A shot: the pictures from {@code start} to {@code end} seconds. */
    public record Shot(int index, double start, double end) {
        public double length() {
            return end - start;
        }
    }

    /**
     * Where a new shot came from: {@code old} (null for a shot the earlier cut did not have) and the
     * {@code shift} that maps an old time to the new one (new = old + shift); {@code distance} the fit.
     */
    public record Match(Shot shot, Shot old, double shift, double distance) {
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
            Match best = new Match(shot, null, 0, Double.MAX_VALUE);
            for (Shot old : oldShots) {
                Match m = fit(shot, old, samples, prints, oldPictures, frame);
                if (m != null && m.distance() < best.distance()) {
                    best = m;
                }
            }
            out.add(best.distance() < MATCH_DISTANCE ? best : new Match(shot, null, 0, best.distance()));
        }
        return out;
    }

    /** The best offset of {@code shot}'s pictures inside {@code old}, or null when the shot does not fit inside it. */
    private static Match fit(
            Shot shot, Shot old, double[] samples, float[][] prints, Signatures oldPictures, double frame) {
        double lowest = samples[samples.length - 1] - old.end();
        double highest = samples[0] - old.start();
        if (lowest > highest + frame) {
            return null;
        }
        double head = shot.start() - old.start();
        double tail = shot.end() - old.end();
        List<Double> candidates = new ArrayList<>();
        double oldStep = framePeriod(oldPictures);
        for (double d = lowest; d <= highest + 1e-9; d += oldStep) {
            candidates.add(d);
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
        // Among offsets that fit equally well (a still picture), the one that keeps a cut where it was.
        double chosen = Double.NaN;
        double nearest = Double.MAX_VALUE;
        for (double[] f : fine) {
            if (f[1] <= bestCost + TIE_DISTANCE) {
                double away = Math.min(Math.abs(f[0] - head), Math.abs(f[0] - tail));
                if (away < nearest - 1e-9) {
                    nearest = away;
                    chosen = f[0];
                }
            }
        }
        // Cut times are frame-exact in both analyses: an offset within a frame of a kept cut is that cut's.
        if (Math.abs(chosen - head) <= 0.6 * frame) {
            chosen = head;
        } else if (Math.abs(chosen - tail) <= 0.6 * frame) {
            chosen = tail;
        }
        return new Match(shot, old, chosen, bestCost);
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
