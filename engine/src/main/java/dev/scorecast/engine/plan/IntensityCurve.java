package dev.scorecast.engine.plan;

import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.analysis.Cut;
import dev.scorecast.engine.analysis.CutKind;
import dev.scorecast.engine.plan.SectionFitter.Stretch;
import java.util.Arrays;
import java.util.List;

/**
 * The intensity of every bar of the plan (0 calm to 1 most intense) from the analysis' energy
 * curve under it, and each section's intensity from its bars. Pure function.
 *
 * <p>Graded, not two-state (issue 26): a bar's intensity is mostly its energy's place among all
 * the video's bars (its rank: the bars below it against those below and above), so a video whose shots run from still to a chase spreads them over
 * the whole range and a slow pan, a walk and a chase land on different levels however close their
 * energies are; and partly the energy itself, so a calm video stays calmer than a busy one. How
 * much the rank counts grows with how far the video's energies spread: in a video of one even
 * shot, noise in the energy is no reason to swing from calm to climax, so there the energy alone
 * speaks. Intensity never falls below {@link #FLOOR}: a still shot is calm, not silence.
 *
 * <p>A hard cut changes the music on the bar line nearest it, as a composer scoring the cut would:
 * a bar the cut falls in is read from the shot that fills most of it, and the smoothing between
 * neighbouring bars stops at a cut (it smoothed across one, so a still shot after a moving one
 * stayed busy for two bars, and the bar before a cut rose ahead of it).
 */
final class IntensityCurve {
    /** The calmest bar's intensity: the calm level still plays (pad, piano, a soft pulse). */
    static final double FLOOR = 0.08;
    /** The energy read as fully intense on its own. */
    static final double FULL_ENERGY = 0.6;
    /** The spread of energies (10th to 90th percentile of bars) at which the rank counts fully. */
    static final double FULL_SPREAD = 0.2;

    static final double RANK_SHARE = 0.65;

    private IntensityCurve() {}

    /** One array per stretch: each bar's intensity, rounded to hundredths. */
    static double[][] bars(List<Stretch> stretches, Analysis analysis) {
        double[] values = analysis.energy() != null && analysis.energy().values() != null
                ? analysis.energy().values()
                : new double[0];
        double hop = analysis.energy() != null && analysis.energy().hop() > 0
                ? analysis.energy().hop()
                : 0.1;
        double[] prefix = new double[values.length + 1];
        for (int k = 0; k < values.length; k++) {
            prefix[k + 1] = prefix[k] + (Double.isFinite(values[k]) ? clamp(values[k]) : 0);
        }
        double[] cuts = analysis.cuts() == null
                ? new double[0]
                : analysis.cuts().stream()
                        .filter(c -> c.kind() == CutKind.CUT)
                        .mapToDouble(Cut::time)
                        .sorted()
                        .toArray();
        double[][] energy = new double[stretches.size()][];
        int total = 0;
        for (int i = 0; i < stretches.size(); i++) {
            Stretch s = stretches.get(i);
            double[] raw = new double[s.bars()];
            boolean[] cutBefore = new boolean[s.bars()];
            double barSeconds = (s.end() - s.start()) / s.bars();
            for (int b = 0; b < s.bars(); b++) {
                double from = s.start() + b * barSeconds;
                double[] shot = longestBetweenCuts(cuts, from, from + barSeconds);
                raw[b] = mean(prefix, values.length, hop, shot[0], shot[1]);
                // A cut from the middle of the bar before to the middle of this one puts them in different shots.
                cutBefore[b] = b > 0 && anyIn(cuts, from - barSeconds / 2, from + barSeconds / 2);
            }
            energy[i] = smooth(raw, cutBefore);
            total += s.bars();
        }
        double[] all = new double[total];
        int n = 0;
        for (double[] e : energy) {
            System.arraycopy(e, 0, all, n, e.length);
            n += e.length;
        }
        double[] sorted = all.clone();
        Arrays.sort(sorted);
        double spread = total == 0
                ? 0
                : sorted[(int) Math.floor(0.9 * (total - 1))] - sorted[(int) Math.floor(0.1 * (total - 1))];
        double rankWeight = RANK_SHARE * Math.min(1, spread / FULL_SPREAD);
        double[][] out = new double[stretches.size()][];
        for (int i = 0; i < energy.length; i++) {
            out[i] = new double[energy[i].length];
            for (int b = 0; b < energy[i].length; b++) {
                double e = energy[i][b];
                double graded = rankWeight * rank(sorted, e) + (1 - rankWeight) * clamp(e / FULL_ENERGY);
                out[i][b] = Math.round((FLOOR + (1 - FLOOR) * clamp(graded)) * 100) / 100.0;
            }
        }
        return out;
    }

    /** A section's intensity: the mean of its bars'. */
    static double section(double[] bars) {
        return bars.length == 0
                ? FLOOR
                : Math.round(Arrays.stream(bars).average().orElse(FLOOR) * 100) / 100.0;
    }

    /**
     * Where {@code e} sits among the sorted values, 0 to 1: the bars below it against the bars
     * below and above it, so the calmest bars read 0 and the busiest 1 however many share a value.
     */
    static double rank(double[] sorted, double e) {
        int below = lowerBound(sorted, e - 1e-9);
        int above = sorted.length - lowerBound(sorted, e + 1e-9);
        return below + above == 0 ? 0.5 : (double) below / (below + above);
    }

    private static int lowerBound(double[] sorted, double v) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < v) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * A light smoothing across neighbouring bars of one section, so that a part does not come and go
     * on one bar's flicker; never across a cut ({@code cutBefore[b]}: a cut between bar b - 1 and b).
     */
    private static double[] smooth(double[] raw, boolean[] cutBefore) {
        if (raw.length < 3) {
            return raw;
        }
        double[] out = new double[raw.length];
        for (int b = 0; b < raw.length; b++) {
            double before = b > 0 && !cutBefore[b] ? raw[b - 1] : raw[b];
            double after = b + 1 < raw.length && !cutBefore[b + 1] ? raw[b + 1] : raw[b];
            out[b] = 0.25 * before + 0.5 * raw[b] + 0.25 * after;
        }
        return out;
    }

    /** The longest part of [{@code from}, {@code to}) that no cut divides: the shot that fills most of the bar. */
    static double[] longestBetweenCuts(double[] cuts, double from, double to) {
        double bestFrom = from;
        double bestTo = from;
        double start = from;
        for (double cut : cuts) {
            if (cut <= from || cut >= to) {
                continue;
            }
            if (cut - start > bestTo - bestFrom) {
                bestFrom = start;
                bestTo = cut;
            }
            start = cut;
        }
        if (to - start > bestTo - bestFrom) {
            bestFrom = start;
            bestTo = to;
        }
        return new double[] {bestFrom, bestTo};
    }

    private static boolean anyIn(double[] cuts, double from, double to) {
        for (double cut : cuts) {
            if (cut > from && cut <= to) {
                return true;
            }
        }
        return false;
    }

    private static double mean(double[] prefix, int count, double hop, double start, double end) {
        int from = (int) Math.min(count, Math.max(0, Math.floor(start / hop + 1e-9)));
        int to = (int) Math.min(count, Math.max(from + 1, Math.ceil(end / hop - 1e-9)));
        return from < to ? (prefix[to] - prefix[from]) / (to - from) : 0.5;
    }

    private static double clamp(double v) {
        return Math.max(0, Math.min(1, v));
    }
}
