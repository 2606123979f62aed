package dev.scorecast.engine.analysis;

import dev.scorecast.engine.analysis.Corpus.Category;
import dev.scorecast.engine.analysis.Corpus.Clip;
import dev.scorecast.engine.analysis.Corpus.Truth;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Scores detected transitions against a clip's truth and keeps the tallies per category: hard cuts
 * match within one frame, fades and dissolves within {@link #GRADUAL_TOLERANCE_SECONDS} of their
 * reported time, and the kind must agree. A transition of the wrong kind is both a miss and a
 * false alarm.
 */
final class AccuracyScore {
    static final int CUT_TOLERANCE_FRAMES = 1;
    static final double GRADUAL_TOLERANCE_SECONDS = 0.25;

    /** Matches of one kind group. */
    static final class Tally {
        int expected;
        int found;
        int hits;
        double worstErrorSeconds;
        double worstSpanErrorSeconds;

        int misses() {
            return expected - hits;
        }

        int falseAlarms() {
            return found - hits;
        }

        double precision() {
            return found == 0 ? 1 : hits / (double) found;
        }

        double recall() {
            return expected == 0 ? 1 : hits / (double) expected;
        }

        double f1() {
            double p = precision();
            double r = recall();
            return p + r == 0 ? 0 : 2 * p * r / (p + r);
        }

        void add(Tally other) {
            expected += other.expected;
            found += other.found;
            hits += other.hits;
            worstErrorSeconds = Math.max(worstErrorSeconds, other.worstErrorSeconds);
            worstSpanErrorSeconds = Math.max(worstSpanErrorSeconds, other.worstSpanErrorSeconds);
        }
    }

    private final Map<Category, Tally> byCategory = new EnumMap<>(Category.class);
    private final Map<Category, Integer> clipsByCategory = new EnumMap<>(Category.class);
    private final Map<Category, Integer> quietViolations = new EnumMap<>(Category.class);
    private final Tally hardCuts = new Tally();
    private final Tally fades = new Tally();
    private final Tally dissolves = new Tally();
    private final List<String> problems = new ArrayList<>();

    /** Scores one clip; {@code truth} has every hard cut's frame resolved. */
    void score(Clip clip, List<Truth> truth, List<Cut> found) {
        clipsByCategory.merge(clip.category(), 1, Integer::sum);
        Tally clipTally = new Tally();
        for (CutKind kind : CutKind.values()) {
            List<Truth> expected = truth.stream().filter(t -> t.kind() == kind).toList();
            List<Cut> detected = found.stream().filter(c -> c.kind() == kind).toList();
            Tally tally = match(clip, kind, expected, detected);
            clipTally.add(tally);
            switch (kind) {
                case CUT -> hardCuts.add(tally);
                case FADE_IN, FADE_OUT -> fades.add(tally);
                case DISSOLVE -> dissolves.add(tally);
            }
        }
        byCategory.computeIfAbsent(clip.category(), c -> new Tally()).add(clipTally);
        int violations = 0;
        for (double[] window : clip.quiet()) {
            for (Cut cut : found) {
                boolean expectedHere = truth.stream()
                        .anyMatch(t -> t.kind() == cut.kind()
                                && Math.abs(t.timeSeconds() - cut.time()) <= GRADUAL_TOLERANCE_SECONDS);
                if (!expectedHere && cut.end() >= window[0] && cut.start() <= window[1]) {
                    violations++;
                    problems.add(clip.name() + ": " + describe(cut) + " inside the quiet window " + window[0] + "-"
                            + window[1] + " s");
                }
            }
        }
        quietViolations.merge(clip.category(), violations, Integer::sum);
    }

    private Tally match(Clip clip, CutKind kind, List<Truth> expected, List<Cut> detected) {
        Tally tally = new Tally();
        tally.expected = expected.size();
        tally.found = detected.size();
        boolean[] used = new boolean[detected.size()];
        for (Truth t : expected) {
            int best = -1;
            double bestError = Double.MAX_VALUE;
            for (int i = 0; i < detected.size(); i++) {
                Cut c = detected.get(i);
                double error =
                        kind == CutKind.CUT ? Math.abs(c.frame() - t.frame()) : Math.abs(c.time() - t.timeSeconds());
                double tolerance = kind == CutKind.CUT ? CUT_TOLERANCE_FRAMES : GRADUAL_TOLERANCE_SECONDS;
                if (!used[i] && error <= tolerance && error < bestError) {
                    best = i;
                    bestError = error;
                }
            }
            if (best < 0) {
                problems.add(clip.name() + ": missed " + kind.wire() + " at "
                        + (kind == CutKind.CUT ? "frame " + t.frame() : seconds(t.timeSeconds())));
                continue;
            }
            used[best] = true;
            tally.hits++;
            Cut c = detected.get(best);
            tally.worstErrorSeconds = Math.max(tally.worstErrorSeconds, Math.abs(c.time() - t.timeSeconds()));
            if (kind != CutKind.CUT) {
                tally.worstSpanErrorSeconds = Math.max(
                        tally.worstSpanErrorSeconds,
                        Math.max(Math.abs(c.start() - t.startSeconds()), Math.abs(c.end() - t.endSeconds())));
            }
        }
        for (int i = 0; i < detected.size(); i++) {
            if (!used[i]) {
                problems.add(clip.name() + ": false " + describe(detected.get(i)));
            }
        }
        return tally;
    }

    Tally hardCuts() {
        return hardCuts;
    }

    Tally fades() {
        return fades;
    }

    Tally dissolves() {
        return dissolves;
    }

    int quietViolations() {
        return quietViolations.values().stream().mapToInt(Integer::intValue).sum();
    }

    List<String> problems() {
        return List.copyOf(problems);
    }

    /** The accuracy table in Markdown. */
    String table() {
        StringBuilder out = new StringBuilder();
        out.append(
                "| category | clips | expected | found | hits | missed | false | precision | recall | F1 | worst time error | worst span error | reported in flash/pan windows |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Category category : Category.values()) {
            Tally t = byCategory.getOrDefault(category, new Tally());
            boolean quietCategory =
                    category == Category.FLASH || category == Category.PAN || category == Category.MIXED;
            out.append(row(
                    category.label,
                    clipsByCategory.getOrDefault(category, 0),
                    t,
                    quietCategory ? Integer.toString(quietViolations.getOrDefault(category, 0)) : ""));
        }
        out.append(row("**all hard cuts (±1 frame)**", -1, hardCuts, ""));
        out.append(row("**all fades (±0.25 s)**", -1, fades, ""));
        out.append(row("**all dissolves (±0.25 s)**", -1, dissolves, ""));
        return out.toString();
    }

    private static String row(String label, int clips, Tally t, String quiet) {
        return String.format(
                Locale.ROOT,
                "| %s | %s | %d | %d | %d | %d | %d | %.3f | %.3f | %.3f | %s | %s | %s |%n",
                label,
                clips < 0 ? "" : Integer.toString(clips),
                t.expected,
                t.found,
                t.hits,
                t.misses(),
                t.falseAlarms(),
                t.precision(),
                t.recall(),
                t.f1(),
                t.hits == 0 ? "" : seconds(t.worstErrorSeconds),
                t.worstSpanErrorSeconds == 0 ? "" : seconds(t.worstSpanErrorSeconds),
                quiet);
    }

    private static String describe(Cut cut) {
        return String.format(
                Locale.ROOT,
                "%s at %.3f s (frame %d, span %.3f-%.3f, strength %.2f)",
                cut.kind().wire(),
                cut.time(),
                cut.frame(),
                cut.start(),
                cut.end(),
                cut.strength());
    }

    private static String seconds(double value) {
        return String.format(Locale.ROOT, "%.3f s", value);
    }
}
