package dev.scorecast.engine.music;

import dev.scorecast.engine.plan.Planner;
import dev.scorecast.engine.plan.Section;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.IntPredicate;

/** Writes one instrument group, section by section; one instance per part (it may keep state). */
interface GroupWriter {

    void write(Ctx ctx);

    /**
     * What a writer needs for one section: its grid and chords, the resolved pattern, the plan's
     * instrument, a random source seeded from the plan's seed and the section, and the part's notes.
     */
    /** Drum velocities above this are compressed toward 127 rather than clipped. */
    int KNEE = 108;
    /**
     * Velocity per unit of intensity under the middle (0.5) and over it: steeper over it, where the
     * master's limiter takes part of every step up, and the calm bars keep their velocity (a softer
     * hit is also a darker one: the analog voices' filters open with velocity).
     */
    int INTENSITY_RANGE = 24;

    int BUSY_INTENSITY_RANGE = 42;
    /**
     * The drums' share of it: they follow the picture mostly by their pattern, and softer hits
     * would also be darker layers (the calm mixes' 6-12 kHz band is the hats').
     */
    int DRUM_INTENSITY_RANGE = 12;

    record Ctx(
            Bars bars,
            StyleBook.Pattern pattern,
            Section.Instrument instrument,
            SplittableRandom rng,
            NoteOut out,
            Section next,
            double duration,
            IntPredicate playsAtLevel) {

        /** A context whose group plays at every level. */
        Ctx(
                Bars bars,
                StyleBook.Pattern pattern,
                Section.Instrument instrument,
                SplittableRandom rng,
                NoteOut out,
                Section next,
                double duration) {
            this(bars, pattern, instrument, rng, out, next, duration, level -> true);
        }

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

        /** The intensity of one bar of the section: the plan's bar_intensity, else the section's. */
        double intensity(int bar) {
            return bars.section.intensityOfBar(bar);
        }

        /** Whether the plan grades this section bar by bar; otherwise every bar plays the pattern it names. */
        boolean graded() {
            return !bars.section.barIntensity().isEmpty();
        }

        /** The pattern level of a bar: from its intensity where the plan grades the section, else the pattern's. */
        int levelIndex(int bar) {
            return graded()
                    ? Math.min(
                            Planner.level(intensity(bar)),
                            pattern.group().levels().size() - 1)
                    : pattern.levelIndex();
        }

        /** The group's pattern level for a bar. */
        StyleBook.Level level(int bar) {
            return pattern.group().levels().get(levelIndex(bar));
        }

        /** The group's name in the style data ("bass", "harmony", ...). */
        String groupName() {
            return pattern.id()
                    .substring(pattern.id().indexOf('/') + 1, pattern.id().lastIndexOf('/'));
        }

        /** The variant of its level's bar that a bar plays in the phrase form (A: the level's own; styles/phrases.json). */
        char variant(int bar) {
            // A cut struck at the end of the bar keeps its level's own bar: the band clears the moment before a hit,
            // and a
            // variant's pickup or anticipation there would be cut to a blip.
            double from = bars.time(bar, bars.stepsPerBar * 3 / 4);
            double to = bars.time(bar + 1, 1);
            if (bars.struckAccents().stream().anyMatch(t -> t >= from && t < to)) {
                return 'A';
            }
            return Phrasing.letter(
                    Phrasing.forms(groupName(), group()), bars.section.index(), bar, bars.bars, bars.last);
        }

        /** A bar's rhythm (bass, harmony, pads): its level's, varied as the phrase form says. */
        String rhythm(int bar) {
            return varied(level(bar).rhythm(), bar);
        }

        /** A bar's chord-tone pattern (tops): its level's, varied as the phrase form says. */
        String tones(int bar) {
            return varied(level(bar).pattern(), bar);
        }

        /** A bar's drum grid: its level's, varied as the phrase form says. */
        Map<String, String> grid(int bar) {
            Map<String, String> grid =
                    level(bar).grid() == null ? Map.of() : level(bar).grid();
            StyleBook.Level level = level(bar);
            return Phrasing.grid(
                    grid, bar, variant(bar), letter -> Phrasing.variant(groupName(), group(), level, (char) letter));
        }

        private String varied(String pattern, int bar) {
            StyleBook.Level level = level(bar);
            return Phrasing.rhythm(
                    pattern, bar, variant(bar), letter -> Phrasing.variant(groupName(), group(), level, (char) letter));
        }

        /**
         * Whether the group plays in a bar: the genre plays it at that bar's level. A section that
         * merges a still shot and a chase brings the drums in under the chase only.
         */
        boolean plays(int bar) {
            return (!graded() || playsAtLevel.test(levelIndex(bar)))
                    && Phrasing.inArc(
                            groupName(),
                            bars.section,
                            bar,
                            bars.bars,
                            bars.last,
                            b -> intensity(b) <= intensity() + 0.05);
        }

        /**
         * The performed onset of a global step for a pitched part: on the grid, swung, and moved by
         * the groove template's pocket (the mean lateness of its drummers on that sixteenth). The
         * section's first downbeat stays exact.
         */
        double onset(int step) {
            if (step == 0) {
                return bars.time(0);
            }
            Groove groove = feel().template();
            double pocket = groove == null
                    ? 0
                    : feel().timing() * groove.ensembleOffset(step % bars.stepsPerBar) * bars.stepSec;
            return bars.time(step) + bars.swing(step, feel().swing()) + pocket;
        }

        /** The performed onset of drum {@code note} on a global step: where the template's drummer put that voice there. */
        double drumOnset(int note, int step) {
            if (step == 0) {
                return bars.time(0);
            }
            Groove groove = feel().template();
            double late = groove == null
                    ? 0
                    : feel().timing()
                            * groove.offset(Groove.drum(note), templateBar(step), step % bars.stepsPerBar)
                            * bars.stepSec;
            return bars.time(step) + bars.swing(step, feel().swing()) + late;
        }

        /**
         * The performed onset of a hit of a drummer's fill on a global step, {@code late} fractions of
         * a sixteenth off it as the drummer played it (swing taken out), scaled by the genre's timing.
         */
        double fillOnset(int step, double late) {
            if (step == 0) {
                return bars.time(0);
            }
            return bars.time(step) + bars.swing(step, feel().swing()) + feel().timing() * late * bars.stepSec;
        }

        /** A drum hit's velocity: the pattern's weight shaped by how hard the template's drummer hit that drum there. */
        int drumVelocity(int note, int step, int base) {
            Groove groove = feel().template();
            double ratio = groove == null
                    ? 1
                    : groove.velocityRatio(Groove.drum(note), templateBar(step), step % bars.stepsPerBar);
            return drumVelocity(step, base * (1 + feel().dynamics() * (ratio - 1)));
        }

        /** A drum velocity {@code raw} as played on a global step: under a soft knee, moved by the intensity of its bar. */
        int drumVelocity(int step, double raw) {
            // A soft knee under 127: the hardest hits stay distinct instead of all clipping to one velocity.
            double played = raw <= KNEE ? raw : KNEE + (127 - KNEE) * Math.tanh((raw - KNEE) / (127 - KNEE));
            // The drums follow the picture mostly by their pattern; their velocity moves less far,
            // or the hardest bars would lose their drummer's spread against the top.
            int bar = Math.clamp(step / bars.stepsPerBar, 0, bars.bars - 1);
            return Math.clamp((int) Math.round(played + DRUM_INTENSITY_RANGE * (intensity(bar) - 0.5)), 1, 127);
        }

        /**
         * A pitched part's velocity on a step: {@code base} with the hats' accent shape of the
         * template, moved by the intensity of the step's bar.
         */
        int velocity(int base, int step) {
            Groove groove = feel().template();
            double accent = groove == null ? 1 : groove.accent(step % bars.stepsPerBar);
            int shaped = base + (int) Math.round(Math.clamp(feel().dynamics() * (accent - 1) * 24, -8, 8));
            return byIntensity(shaped, intensity(Math.clamp(step / bars.stepsPerBar, 0, bars.bars - 1)));
        }

        /**
         * Bars the drums leave out at the start of the video: music starts with the picture, but a
         * calm opening (the first section below intensity 0.5 and no hit on its first frame) starts
         * sparse, the beat coming in after a bar (two in a section of eight bars or more).
         */
        int introBars() {
            Section s = bars.section;
            boolean calm = s.index() == 0 && s.intensity() < 0.5 && (s.hit() == null || !Composer.strikes(s.hit()));
            return !calm || bars.last ? 0 : bars.bars >= 8 ? 2 : bars.bars >= 4 ? 1 : 0;
        }

        /** Which of the template's recorded bars a global step falls in: the bars run on across sections. */
        int templateBar(int step) {
            int barOfSection = step / bars.stepsPerBar;
            double barSeconds = bars.stepSec * bars.stepsPerBar;
            return (int) Math.round(bars.section.start() / barSeconds) + barOfSection;
        }

        /** {@code base} moved by the section's intensity. */
        int velocity(int base) {
            return byIntensity(base, intensity());
        }

        /**
         * {@code base} moved by {@code intensity}: -12 at the calmest, +21 at the most intense
         * (issue 26: level is one of the ways the music follows the picture; the pattern, the parts
         * and the register are the others).
         */
        static int byIntensity(int base, double intensity) {
            double away = intensity - 0.5;
            return Math.clamp(
                    base + (int) Math.round(away * (away < 0 ? INTENSITY_RANGE : BUSY_INTENSITY_RANGE)), 1, 127);
        }
    }
}
