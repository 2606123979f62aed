package dev.scorecast.engine.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The minimum scene length, applied after detection as its own step: a hard cut closer than
 * {@code minSceneSeconds} to the video's start or to the transition before it goes (when two hard
 * cuts are that close, the weaker one goes). Gradual transitions are kept; they only push away
 * hard cuts near their spans. Pure function.
 */
final class MinSceneLength {

    private MinSceneLength() {}

    static List<Cut> apply(List<Cut> transitions, double minSceneSeconds) {
        List<Cut> sorted = transitions.stream()
                .sorted(Comparator.comparingDouble(Cut::time))
                .toList();
        List<Cut> kept = new ArrayList<>();
        double sceneStart = 0;
        for (Cut cut : sorted) {
            if (cut.kind() != CutKind.CUT) {
                // A hard cut kept just before this span would leave a sliver of a scene; the span wins.
                while (!kept.isEmpty()
                        && kept.getLast().kind() == CutKind.CUT
                        && cut.start() - kept.getLast().time() < minSceneSeconds) {
                    kept.removeLast();
                }
                kept.add(cut);
                sceneStart = cut.end();
                continue;
            }
            if (cut.time() - sceneStart >= minSceneSeconds) {
                kept.add(cut);
                sceneStart = cut.time();
            } else if (!kept.isEmpty()
                    && kept.getLast().kind() == CutKind.CUT
                    && cut.strength() > kept.getLast().strength()) {
                kept.removeLast();
                kept.add(cut);
                sceneStart = cut.time();
            }
        }
        return List.copyOf(kept);
    }
}
