package dev.scorecast.engine.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Settles what several detectors said about the same moment. A fade also looks like a dissolve
 * (a blend with black), so a dissolve overlapping a fade is dropped; a hard cut inside a fade or
 * a dissolve is the sharpest step of that transition, not a cut of its own. Pure function.
 */
final class Transitions {
    /** Spans this close count as touching. */
    static final double SLACK_SECONDS = 0.1;

    private Transitions() {}

    static List<Cut> resolve(List<Cut> hardCuts, List<Cut> fades, List<Cut> dissolves) {
        List<Cut> out = new ArrayList<>(fades);
        for (Cut dissolve : dissolves) {
            if (fades.stream().noneMatch(fade -> overlaps(fade, dissolve))) {
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
