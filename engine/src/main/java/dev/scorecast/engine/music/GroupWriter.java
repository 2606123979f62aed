package dev.scorecast.engine.music;

import dev.scorecast.engine.plan.Section;
import java.util.SplittableRandom;

/** Writes one instrument group, section by section; one instance per part (it may keep state). */
interface GroupWriter {

    void write(Ctx ctx);

    /**
     * What a writer needs for one section: its grid and chords, the resolved pattern, the plan's
     * instrument, a random source seeded from the plan's seed and the section, and the part's notes.
     */
    record Ctx(Bars bars, StyleBook.Pattern pattern, Section.Instrument instrument, SplittableRandom rng, NoteOut out,
               Section next, double duration) {

        StyleBook.Feel feel() {
            return pattern.style().feelOrDefault();
        }

        StyleBook.Level level() {
            return pattern.level();
        }

        StyleBook.GroupStyle group() {
            return pattern.group();
        }

        Section section() {
            return bars.section;
        }

        double intensity() {
            return bars.section.intensity();
        }

        /** Humanised onset of a global step; the section's first downbeat stays exact. */
        double onset(int step) {
            if (step == 0) {
                return bars.time(0);
            }
            return bars.time(step) + bars.swing(step, feel().swing()) + NoteOut.jitter(rng, feel().humanizeMs());
        }

        int velocity(int base) {
            return Math.clamp(base + (int) Math.round((intensity() - 0.5) * 14) + NoteOut.wobble(rng, feel().humanizeVelocity()), 1, 127);
        }
    }
}
