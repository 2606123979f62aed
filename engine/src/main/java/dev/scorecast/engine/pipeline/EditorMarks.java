package dev.scorecast.engine.pipeline;

import dev.scorecast.engine.music.Score;
import dev.scorecast.engine.plan.EditorMarker;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.Section;
import java.util.List;

/**
 * The editor's markers as moments the sync check measures (docs/EDITING.md): each is written into
 * the plan as something struck on its time (a hit, a drop, a swell's arrival, a start, the strike
 * that ends the music at a stop), so each is measured as a step up in level at its time, exactly as
 * the planned accents are, and reported with its offset.
 */
final class EditorMarks {
    private EditorMarks() {}

    static List<Score.Accent> accents(Plan plan) {
        return plan.markers().stream()
                .map(m -> new Score.Accent(m.time(), m.kind().wire(), section(plan, m)))
                .toList();
    }

    private static int section(Plan plan, EditorMarker marker) {
        int index = 0;
        for (Section s : plan.sections()) {
            if (s.start() <= marker.time() + 1e-9) {
                index = s.index();
            }
        }
        return index;
    }
}
