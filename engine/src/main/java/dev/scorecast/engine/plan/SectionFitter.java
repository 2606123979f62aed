package dev.scorecast.engine.plan;

import dev.scorecast.engine.analysis.Cut;
import dev.scorecast.engine.analysis.CutKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CancellationException;

/**
 * Chooses which cuts start a section and fits a steady tempo to each stretch so that a whole
 * number of bars fills it exactly. A pure function over the cut list.
 *
 * <p>Every pair of candidate boundaries (the start, each cut, the end) is a possible stretch; a
 * dynamic programme picks the chain from start to end that scores best: each cut used earns its
 * strength, each stretch pays for a tempo far from the base tempo and from the tempo before it, for falling outside the
 * genre's range (half or double time allowed at a price) and for being shorter than four bars.
 * Stretches shorter than two bars (or three seconds) are not allowed at all, so cuts that come
 * too quickly are skipped and become accents inside a section. Stretches longer than the look-back
 * window are tried only from the nearest boundary beyond it, so the search stays about linear.
 * Long stretches are then cut into phrases of the genre's length at bar lines, keeping their tempo.
 */
final class SectionFitter {
    /** No section shorter than this, whatever the tempo. */
    static final double MIN_SECTION_SECONDS = 3.0;

    static final double MIN_TEMPO = 40;
    static final double MAX_TEMPO = 240;
    /** Stretches longer than this (or three phrases) are only tried from the nearest boundary beyond it. */
    private static final double LOOKBACK_SECONDS = 120;
    /** More candidate cuts than this (a very busy long video): the weakest are left out of the search. */
    private static final int MAX_CANDIDATES = 3000;
    /** What starting a section on a cut is worth, plus its strength times the next; gradual transitions earn 0.5 more. */
    private static final double CUT_REWARD = 2;

    private static final double CUT_STRENGTH_REWARD = 3;
    private static final double RELAXED_PENALTY = 4;
    private static final double OUT_OF_STYLE_PENALTY = 12;
    private static final double TEMPO_WEIGHT = 8;
    /** Per relative change of tempo from the stretch before (the best chain into each cut remembers its last tempo). */
    private static final double CHANGE_WEIGHT = 24;

    private static final double SHORT_PENALTY_PER_BAR = 0.75;
    /** An accent no nearer than this to its section's start or to another accent. */
    private static final double ACCENT_SPACING_SECONDS = 0.5;

    /** How a stretch is filled: {@code bars} bars of {@code beatsPerBar} at {@code tempo} (exact, unrounded). */
    record Fit(int bars, double tempo, double penalty) {}

    /** One planned stretch; {@code cut} is the cut it starts on (null at 0 or at a phrase split). */
    record Stretch(double start, double end, int bars, double tempo, Cut cut, List<Cut> inside) {}

    private SectionFitter() {}

    static List<Stretch> split(
            List<Cut> cuts,
            double duration,
            double fps,
            double tempoMin,
            double tempoMax,
            double baseTempo,
            int beatsPerBar,
            int phraseBars) {
        List<Cut> candidates = candidates(cuts, duration, fps);
        int m = candidates.size();
        double[] times = new double[m + 2];
        double[] reward = new double[m + 2];
        times[m + 1] = duration;
        for (int k = 0; k < m; k++) {
            Cut cut = candidates.get(k);
            times[k + 1] = cut.time();
            reward[k + 1] = CUT_REWARD + CUT_STRENGTH_REWARD * cut.strength() + (cut.kind() == CutKind.CUT ? 0 : 0.5);
        }
        double minLength = Math.max(MIN_SECTION_SECONDS, 2 * beatsPerBar * 60 / baseTempo);
        double[] best = new double[m + 2];
        int[] previous = new int[m + 2];
        Fit[] fits = new Fit[m + 2];
        double[] tempoAt = new double[m + 2];
        Arrays.fill(best, Double.NEGATIVE_INFINITY);
        best[0] = 0;
        tempoAt[0] = baseTempo;
        double window = Math.max(LOOKBACK_SECONDS, 3 * phraseBars * beatsPerBar * 60 / baseTempo);
        for (int j = 1; j <= m + 1; j++) {
            if ((j & 63) == 0 && Thread.currentThread().isInterrupted()) {
                // The server's planning deadline passed; give the thread back rather than finish.
                throw new CancellationException("planning was stopped at its deadline");
            }
            boolean beyondTried = false;
            for (int i = j - 1; i >= 0; i--) {
                if (best[i] == Double.NEGATIVE_INFINITY) {
                    continue;
                }
                double length = times[j] - times[i];
                if (length > window) {
                    // Beyond the window only the nearest reachable boundary is tried: the search
                    // stays linear in practice yet always finds a way across a long scene.
                    if (beyondTried) {
                        break;
                    }
                    beyondTried = true;
                }
                boolean whole = i == 0 && j == m + 1;
                if (length < minLength && !whole) {
                    continue;
                }
                Fit fit = fit(length, tempoMin, tempoMax, (baseTempo + tempoAt[i]) / 2, beatsPerBar);
                if (fit == null) {
                    continue;
                }
                double change = CHANGE_WEIGHT * Math.abs(fit.tempo() - tempoAt[i]) / baseTempo;
                double value = best[i] + reward[j] - cost(fit, baseTempo) - change;
                if (value > best[j]) {
                    best[j] = value;
                    previous[j] = i;
                    fits[j] = fit;
                    tempoAt[j] = fit.tempo();
                }
            }
        }
        if (best[m + 1] == Double.NEGATIVE_INFINITY) {
            return List.of();
        }
        List<Integer> chain = new ArrayList<>();
        for (int j = m + 1; j > 0; j = previous[j]) {
            chain.add(j);
        }
        chain.add(0);
        Collections.reverse(chain);

        List<Stretch> stretches = new ArrayList<>();
        for (int c = 1; c < chain.size(); c++) {
            int i = chain.get(c - 1);
            int j = chain.get(c);
            Fit fit = fits[j];
            Cut startCut = i == 0 ? null : candidates.get(i - 1);
            phrases(times[i], times[j], fit, startCut, beatsPerBar, phraseBars, stretches);
        }
        return withAccents(stretches, candidates);
    }

    /**
     * The bar count whose tempo lies in the genre's range and nearest the base tempo; failing
     * that, half or double time of the range; failing that, any tempo from 40 to 240. Null when not
     * even one bar fits 40 to 240 beats per minute.
     */
    static Fit fit(double seconds, double tempoMin, double tempoMax, double baseTempo, int beatsPerBar) {
        Fit strict = fitIn(seconds, tempoMin, tempoMax, baseTempo, beatsPerBar, 0);
        if (strict != null) {
            return strict;
        }
        Fit doubled = fitIn(
                seconds,
                Math.max(MIN_TEMPO, 2 * tempoMin),
                Math.min(MAX_TEMPO, 2 * tempoMax),
                2 * baseTempo,
                beatsPerBar,
                RELAXED_PENALTY);
        Fit halved = fitIn(
                seconds,
                Math.max(MIN_TEMPO, tempoMin / 2),
                Math.min(MAX_TEMPO, tempoMax / 2),
                baseTempo / 2,
                beatsPerBar,
                RELAXED_PENALTY);
        if (doubled != null || halved != null) {
            if (doubled == null) {
                return halved;
            }
            if (halved == null) {
                return doubled;
            }
            return Math.abs(doubled.tempo() / 2 - baseTempo) <= Math.abs(halved.tempo() * 2 - baseTempo)
                    ? doubled
                    : halved;
        }
        return fitIn(seconds, MIN_TEMPO, MAX_TEMPO, baseTempo, beatsPerBar, OUT_OF_STYLE_PENALTY);
    }

    private static Fit fitIn(double seconds, double low, double high, double target, int beatsPerBar, double penalty) {
        if (low > high) {
            return null;
        }
        double barsPerBpm = seconds / (60.0 * beatsPerBar);
        long fewest = Math.max(1, (long) Math.ceil(low * barsPerBpm - 1e-9));
        long most = (long) Math.floor(high * barsPerBpm + 1e-9);
        if (fewest > most || most > Integer.MAX_VALUE) {
            return null;
        }
        long bars = Math.max(fewest, Math.min(most, Math.round(target * barsPerBpm)));
        return new Fit((int) bars, bars / barsPerBpm, penalty);
    }

    private static double cost(Fit fit, double baseTempo) {
        double offTempo = fit.penalty() > 0 ? 0 : TEMPO_WEIGHT * Math.abs(fit.tempo() - baseTempo) / baseTempo;
        double short_ = fit.bars() < 4 ? (4 - fit.bars()) * SHORT_PENALTY_PER_BAR : 0;
        return fit.penalty() + offTempo + short_;
    }

    /** Cuts strictly inside the video, in time order, none within a frame of another (the stronger kept). */
    private static List<Cut> candidates(List<Cut> cuts, double duration, double fps) {
        double frame = 1 / fps;
        List<Cut> sorted = cuts.stream()
                .filter(c -> c.time() > frame / 2 && c.time() < duration - frame / 2 && Double.isFinite(c.time()))
                .sorted(Comparator.comparingDouble(Cut::time))
                .toList();
        List<Cut> out = new ArrayList<>();
        for (Cut cut : sorted) {
            if (!out.isEmpty() && cut.time() - out.getLast().time() < frame) {
                if (cut.strength() > out.getLast().strength()) {
                    out.set(out.size() - 1, cut);
                }
                continue;
            }
            out.add(cut);
        }
        if (out.size() > MAX_CANDIDATES) {
            List<Cut> strongest = out.stream()
                    .sorted(Comparator.comparingDouble(Cut::strength).reversed().thenComparingDouble(Cut::time))
                    .limit(MAX_CANDIDATES)
                    .toList();
            out = strongest.stream()
                    .sorted(Comparator.comparingDouble(Cut::time))
                    .toList();
        }
        return out;
    }

    /**
     * Splits a stretch of {@code fit.bars()} bars into phrases of {@code phraseBars} when it is more
     * than half as long again; the last phrase takes the rest (a rest under half a phrase joins the
     * phrase before). The tempo stays, so each split lands on a bar line.
     */
    private static void phrases(
            double start, double end, Fit fit, Cut startCut, int beatsPerBar, int phraseBars, List<Stretch> out) {
        int bars = fit.bars();
        List<Integer> lengths = new ArrayList<>();
        if (bars <= phraseBars * 3 / 2) {
            lengths.add(bars);
        } else {
            int left = bars;
            while (left > 0) {
                int take = left - phraseBars < phraseBars / 2 ? left : phraseBars;
                lengths.add(take);
                left -= take;
            }
        }
        double barSeconds = beatsPerBar * 60.0 / fit.tempo();
        int done = 0;
        double from = start;
        for (int k = 0; k < lengths.size(); k++) {
            done += lengths.get(k);
            double to = k == lengths.size() - 1 ? end : Math.round((start + done * barSeconds) * 1e6) / 1e6;
            out.add(new Stretch(from, to, lengths.get(k), fit.tempo(), k == 0 ? startCut : null, List.of()));
            from = to;
        }
    }

    /** Hands every cut that did not start a section to the section it falls in, thinned to one per half second. */
    private static List<Stretch> withAccents(List<Stretch> stretches, List<Cut> candidates) {
        List<Stretch> out = new ArrayList<>(stretches.size());
        int k = 0;
        for (Stretch s : stretches) {
            List<Cut> inside = new ArrayList<>();
            double last = s.start();
            while (k < candidates.size() && candidates.get(k).time() < s.end()) {
                Cut cut = candidates.get(k++);
                if (cut == s.cut()
                        || cut.time() - last < ACCENT_SPACING_SECONDS
                        || s.end() - cut.time() < ACCENT_SPACING_SECONDS / 2) {
                    continue;
                }
                inside.add(cut);
                last = cut.time();
            }
            out.add(new Stretch(s.start(), s.end(), s.bars(), s.tempo(), s.cut(), List.copyOf(inside)));
        }
        return out;
    }
}
