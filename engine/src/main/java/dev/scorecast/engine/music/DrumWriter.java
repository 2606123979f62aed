package dev.scorecast.engine.music;

import dev.scorecast.engine.plan.Section;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Beats: the level's 16th-note grid per GM drum note, a fill in the bar before the next section
 * (from the fill grid's first used step; level 0 only its last beat) and a piece of it at every
 * phrase end; where the genre's groove template has drummers' fills (Groove MIDI Dataset), one of
 * them, chosen by the seed among those whose density suits the level, instead. On every section's
 * first downbeat a crash and a kick, exactly on time (also the next section's when it rests the
 * drums, and on cuts inside the section). The final bar is the crash alone.
 */
final class DrumWriter implements GroupWriter {
    static final int KICK = 36;
    static final int CRASH = 49;
    static final int PHRASE_BARS = 4;
    /** Where a drummer's fill starts in the bar before a new section, per level (of 16 steps): the calmer, the shorter. */
    private static final int[] SECTION_FILL_FROM = {12, 8, 4, 0};
    /** The velocity of a drummer's loudest hit in a fill (the grid's digit 9); the others keep their weight under it. */
    private static final int FILL_TOP = 119;
    /** No hit of a drummer's fill is played softer than this share of its loudest. */
    private static final double FILL_FLOOR = 0.3;

    /** The drummer's fill played last (an index into the template's fills), so that the next is another. */
    private int previousFill = -1;

    /** The drummers' fills this part played, for the score's provenance. */
    final List<Score.DrumFillPlayed> played = new ArrayList<>();

    @Override
    public void write(Ctx ctx) {
        Bars bars = ctx.bars();
        Map<String, String> fill =
                ctx.group().fill() == null ? Map.of() : ctx.group().fill();
        // Where the genre's template has drummers' fills (styles/grooves), they are played instead of the written one.
        List<DrumFill> drummed = ctx.feel().template() == null
                ? List.of()
                : ctx.feel().template().fills();
        int fillFrom = 16;
        for (String row : fill.values()) {
            for (int i = 0; i < Math.min(16, row.length()); i++) {
                if (row.charAt(i) != '.') {
                    fillFrom = Math.min(fillFrom, i);
                }
            }
        }
        int accentVelocity = ctx.group().velocity() == null ? 112 : ctx.group().velocity();
        double step = bars.stepSec;
        // The accent on the first downbeat: crash + kick, never humanised, and at full force after
        // the first section whatever the new intensity, or the fill leading in would outweigh it.
        // A calm opening is no hit: the drums come in after the intro (ctx.introBars()) instead.
        int intro = ctx.introBars();
        int boundary = ctx.section().index() > 0 ? 127 : ctx.velocity(accentVelocity);
        if (intro == 0) {
            ctx.out().add(bars.time(0), step * 16, CRASH, boundary - 4);
            ctx.out().add(bars.time(0), step * 2, KICK, boundary);
        }
        // Cuts inside the section are struck the same way, on their exact time, wherever it falls in the bar.
        List<Double> struck = new ArrayList<>();
        for (Section.Hit accent : ctx.section().accents()) {
            if (Composer.strikes(accent)) {
                ctx.out().add(accent.time(), step * 16, CRASH, 123);
                ctx.out().add(accent.time(), step * 2, KICK, 127);
                struck.add(accent.time());
            }
        }
        if (ctx.next() != null && ctx.next().instruments().get("beats") == null) {
            // Crash and stop: the next section rests the drums, but its downbeat is still struck
            // here, or the fill leading into it would be the loudest thing near the cut.
            ctx.out().add(ctx.next().start(), step * 16, CRASH, 123);
            ctx.out().add(ctx.next().start(), step * 2, KICK, 127);
        }
        int lastBar = bars.bars - 1;
        for (int bar = 0; bar < bars.bars; bar++) {
            // The bar's own level: a section that merges a calm shot and a busy one changes pattern with the picture.
            int level = ctx.levelIndex(bar);
            Map<String, String> grid = sectionFill(bars, bar)
                    ? (ctx.level(bar).grid() == null ? Map.of() : ctx.level(bar).grid())
                    : ctx.grid(bar);
            int fillStart = (level == 0 ? Math.max(fillFrom, 12) : fillFrom) * bars.stepsPerBar / 16;
            int snare = snareNote(grid);
            boolean ghosts = ctx.feel().ghosts() && ctx.feel().template() != null && level >= 1 && snare > 0;
            if (bars.last && bar == lastBar) {
                if (bar > 0) {
                    double t = bars.time(bar, 0);
                    ctx.out().add(t, ctx.duration() - t, CRASH, 123);
                    ctx.out().add(t, step * 2, KICK, 127);
                }
                break;
            }
            if (bar < intro - 1 || !ctx.plays(bar)) {
                continue;
            }
            if (bar > 0 && bar >= intro && !ctx.plays(bar - 1)) {
                // The drums come back after bars of rest (a breakdown, or a calm stretch of the picture) with a crash.
                ctx.out()
                        .add(bars.time(bar, 0), step * 16, CRASH, ctx.drumVelocity(CRASH, bar * bars.stepsPerBar, 104));
            }
            boolean introEnd = bar == intro - 1;
            boolean sectionFill = !bars.last && bar == lastBar;
            // Phrases are four bars; the last bar of each is marked, a different way every other
            // phrase, so no two phrases in a row are the same: the fill's last beat ends the second
            // of each pair, its last two sixteenths (a pickup) the first.
            int phrase = bar / PHRASE_BARS;
            boolean phraseEnd = !sectionFill && bar % PHRASE_BARS == PHRASE_BARS - 1 && bar < lastBar;
            // The intro's last bar is silent but for the fill's last beat leading the groove in.
            int from = introEnd
                    ? bars.stepsPerBar - bars.stepsPerBar / 4
                    : sectionFill
                            ? fillStart
                            : phraseEnd
                                    ? bars.stepsPerBar - (phrase % 2 == 1 ? bars.stepsPerBar / 4 : bars.stepsPerBar / 8)
                                    : bars.stepsPerBar;
            // A drummer's fill, chosen by the seed among those that suit the bar's level, its end
            // played up to the bar's end: the last beat leads the groove in after the intro; a
            // section ends on as much of it as its level has room for; phrase ends alternate a
            // shorter and a longer piece, longer at the busy levels.
            int from16 = introEnd
                    ? 12
                    : sectionFill
                            ? SECTION_FILL_FROM[Math.clamp(level, 0, 3)]
                            : level >= 2 ? (phrase % 2 == 1 ? 8 : 12) : (phrase % 2 == 1 ? 12 : 14);
            boolean fills = introEnd || sectionFill || phraseEnd;
            int fillsFrom = drummed.isEmpty() ? from : Math.max(0, bars.stepsPerBar - (DrumFill.STEPS - from16));
            if (fills && coversAccent(bars, bar, Math.min(from, fillsFrom))) {
                // A cut struck inside the fill's span: the fill would run over the cut's crash and kick (or be
                // cleared to a stump before it), so the bar keeps its groove and the accent stands alone.
                fills = false;
                from = bars.stepsPerBar;
            }
            DrumFill played = null;
            if (!drummed.isEmpty() && fills) {
                int chosen = DrumFill.choose(drummed, level, from16, previousFill, ctx.rng());
                if (chosen >= 0) {
                    previousFill = chosen;
                    played = drummed.get(chosen).atLevel(level);
                    from = Math.max(0, bars.stepsPerBar - (DrumFill.STEPS - from16));
                    this.played.add(new Score.DrumFillPlayed(
                            bars.time(bar, from), drummed.get(chosen).from()));
                }
            }
            for (int s = 0; s < bars.stepsPerBar; s++) {
                boolean inFill = s >= from && (played != null || !fill.isEmpty());
                if (introEnd && !inFill) {
                    continue;
                }
                int global = bar * bars.stepsPerBar + s;
                if (inFill && played != null) {
                    // The fill ends with the bar, whatever the meter.
                    int index = s - bars.stepsPerBar + DrumFill.STEPS;
                    for (DrumFill.Hit hit : index < 0 ? List.<DrumFill.Hit>of() : played.at(index)) {
                        if (!accentPlays(hit.note(), bar, s, intro, struck, bars.time(global), step)) {
                            double weight = Math.max(FILL_FLOOR, hit.velocity() / (double) played.peak());
                            ctx.out()
                                    .add(
                                            ctx.fillOnset(global, hit.offset()),
                                            length(hit.note(), step),
                                            hit.note(),
                                            ctx.drumVelocity(
                                                    global,
                                                    FILL_TOP * (1 + ctx.feel().dynamics() * (weight - 1))));
                        }
                    }
                    continue;
                }
                Map<String, String> rows = inFill ? fill : grid;
                boolean struckHere = false;
                for (Map.Entry<String, String> row : rows.entrySet()) {
                    String pattern = row.getValue();
                    int span = Math.max(1, pattern.length() / 16);
                    char c = pattern.charAt((16 * (bar % span) + s % 16) % pattern.length());
                    if (c < '1' || c > '9') {
                        continue;
                    }
                    int note = Integer.parseInt(row.getKey());
                    if (accentPlays(note, bar, s, intro, struck, bars.time(global), step)) {
                        continue;
                    }
                    Groove.Drum drum = Groove.drum(note);
                    struckHere |= drum == Groove.Drum.KICK || drum == Groove.Drum.SNARE;
                    ctx.out()
                            .add(
                                    ctx.drumOnset(note, global),
                                    length(note, step),
                                    note,
                                    ctx.drumVelocity(note, global, 20 + (c - '0') * 11));
                }
                if (ghosts && !inFill && !introEnd && !struckHere && !(bar == 0 && s == 0)) {
                    int ghost = ctx.feel().template().ghost(ctx.templateBar(global), s);
                    if (ghost > 0) {
                        ctx.out()
                                .add(
                                        ctx.drumOnset(snare, global),
                                        step,
                                        snare,
                                        Math.clamp(Math.round(ghost * 0.8f), 16, 44));
                    }
                }
            }
        }
    }

    /**
     * Whether an accent already plays this kick or crash: the section's first downbeat, or a struck
     * cut within a sixteenth of it (a second hit a moment off would flam).
     */
    private static boolean accentPlays(
            int note, int bar, int s, int intro, List<Double> struck, double time, double step) {
        if (note != KICK && note != CRASH) {
            return false;
        }
        return (bar == 0 && s == 0 && intro == 0) || near(struck, time, step);
    }

    /**
     * Whether a struck cut inside the section falls in a bar's fill, from its step {@code from} (less
     * the drums' clearing before a hit) to the bar's end: the next section's own downbeat, at the
     * bar's end, is what a fill leads into, not a cut it covers.
     */
    static boolean coversAccent(Bars bars, int bar, int from) {
        double start = bars.time(bar, from) - HitClearance.DRUM_SECONDS;
        double end = bars.time(bar + 1, 0) - 1e-6;
        return bars.struckAccents().stream().anyMatch(t -> t > start && t < end);
    }

    /** How long a drum note is held: cymbals and open hats ring for half a bar, the rest a sixteenth. */
    private static double length(int note, double step) {
        return note == CRASH || note == 46 || note == 51 || note == 57 ? step * 8 : step;
    }

    /** The section's own fill bar (the last before the next section): the fill is its variation. */
    private static boolean sectionFill(Bars bars, int bar) {
        return !bars.last && bar == bars.bars - 1;
    }

    /** The snare (or side stick, or clap) the grid plays its backbeat on; 0 if it has none. */
    private static int snareNote(Map<String, String> grid) {
        for (int note : new int[] {38, 40, 37, 39}) {
            if (grid.containsKey(Integer.toString(note))) {
                return note;
            }
        }
        return 0;
    }

    private static boolean near(List<Double> times, double t, double within) {
        for (double time : times) {
            if (Math.abs(time - t) < within) {
                return true;
            }
        }
        return false;
    }
}
