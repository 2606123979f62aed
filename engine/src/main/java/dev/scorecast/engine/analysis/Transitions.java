package dev.scorecast.engine.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Settles what several detectors said about the same moment. A fade also looks like a dissolve
 * (a blend with black), so a dissolve overlapping a fade is dropped; a hard cut inside a fade or
 * a dissolve is the sharpest step of that transition, not a cut of its own, unless it is a strong
 * one (at least {@link #CUT_BEATS_DISSOLVE} strength): a dissolve spreads its change over many
 * frames, so a span holding one big jump is motion around a cut that the ramp fit mistook for a
 * blend. Pure function.
 */
final class Transitions {
    /** Spans this close count as touching. */
    static final double SLACK_SECONDS = 0.1;

    static final double CUT_BEATS_DISSOLVE = 0.5;

    private Transitions() {}

    static List<Cut> resolve(List<Cut> hardCuts, List<Cut> fades, List<Cut> dissolves) {
        List<Cut> out = new ArrayList<>(fades);
        for (Cut dissolve : dissolves) {
            boolean holdsStrongCut = hardCuts.stream()
                    .anyMatch(cut -> cut.strength() >= CUT_BEATS_DISSOLVE
                            && cut.time() > dissolve.start() + SLACK_SECONDS
                            && cut.time() < dissolve.end() - SLACK_SECONDS);
            if (!holdsStrongCut && fades.stream().noneMatch(fade -> overlaps(fade, dissolve))) {
                out.add(dissolve);
            }
        }
        List<Cut> gradual = List.copyOf(out);
        for (Cut cut : hardCuts) {
            if (gradual.stream().noneMatch(span -> overlaps(span, cut))) {
                out.add(cut);
            }
        }
        out.sort(Comparator.comparingDouble(Cut::time));
        return List.copyOf(out);
    }

    private static boolean overlaps(Cut a, Cut b) {
        return a.start() - SLACK_SECONDS <= b.end() && b.start() - SLACK_SECONDS <= a.end();
    }
}
