package dev.scorecast.engine.music;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.Section;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Issue 26, the genre's colours: a pedal point builds the bars before a rise (BassWriter, styles' bass "pedal"). */
class PedalTest {
    private static final int E = 4; // the dominant of A, the first section's key in Plans

    @Test
    void theBassHoldsTheDominantUnderMovingChordsBeforeARise() {
        List<Note> rising = lastBarsOfTheFirstSection(Plans.plan("cinematic", 3, 0.3, 0.9, 0.5, 0.2));
        long onDominant = rising.stream().filter(n -> n.pitch() % 12 == E).count();
        assertTrue(
                onDominant >= 0.75 * rising.size() && !rising.isEmpty(),
                "before a rise the bass holds E: "
                        + rising.stream().map(Note::pitch).toList());
        List<Note> level = lastBarsOfTheFirstSection(Plans.plan("cinematic", 3, 0.3, 0.35, 0.5, 0.2));
        Set<Integer> classes = level.stream().map(n -> n.pitch() % 12).collect(Collectors.toSet());
        assertTrue(
                classes.size() > 1,
                "without a rise the bass follows the chords: "
                        + level.stream().map(Note::pitch).toList());
    }

    @Test
    void aStyleWithoutAPedalFollowsTheChordsBeforeARise() {
        List<Note> rising = lastBarsOfTheFirstSection(Plans.plan("rock", 3, 0.3, 0.9, 0.5, 0.2));
        assertTrue(
                rising.stream().map(n -> n.pitch() % 12).distinct().count() > 1,
                "rock has no pedal: " + rising.stream().map(Note::pitch).toList());
    }

    /** The bass notes struck in the first section's last two bars (its final anticipation of the next chord aside). */
    private static List<Note> lastBarsOfTheFirstSection(Plan plan) {
        Section first = plan.sections().getFirst();
        double bar = first.durationSeconds() / first.bars();
        double from = first.start() + (first.bars() - BassWriter.PEDAL_BARS) * bar;
        double to = first.start() + first.durationSeconds() - 0.25 * bar;
        Part bass = new Composer()
                .compose(plan).parts().stream()
                        .filter(p -> p.group() == InstrumentGroup.BASS)
                        .findFirst()
                        .orElseThrow();
        return bass.notes().stream()
                .filter(n -> n.start() >= from - 0.05 && n.start() < to)
                .toList();
    }
}
