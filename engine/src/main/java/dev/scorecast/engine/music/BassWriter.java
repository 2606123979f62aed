package dev.scorecast.engine.music;

/**
 * Bass: the level's rhythm string over the chords. R root, F fifth, O octave, T third, S seventh,
 * A approach (a semitone under or over the next chord's root), N the next chord's root played early (an
 * anticipation), lower case for a ghost note; '-'
 * holds, '.' rests. Every section starts with a low root exactly on its first downbeat; the final
 * bar is the tonic root ringing to the end. A style's {@code pedal} ("V" or "I") holds the bass on
 * the key's dominant or tonic for the last {@link #PEDAL_BARS} bars before a rise into a busier
 * section, while the chords move above it: the build a film composer writes into a climax.
 */
final class BassWriter implements GroupWriter {
    /** Bars of the pedal before a rise. */
    static final int PEDAL_BARS = 2;
    /** How much more intense the next section must be for the bars before it to build on a pedal. */
    static final double PEDAL_RISE = 0.25;

    private int previous = -1;

    @Override
    public void write(Ctx ctx) {
        Bars bars = ctx.bars();
        int lo = ctx.group().lo(28);
        int hi = ctx.group().hi(52);
        int sectionBase = ctx.level().velocity() == null ? 96 : ctx.level().velocity();
        boolean startPlayed = false;
        int pedal = pedal(ctx, lo);
        for (int bar = 0; bar < bars.bars; bar++) {
            int base = ctx.level(bar).velocity() == null ? 96 : ctx.level(bar).velocity();
            String rhythm = ctx.rhythm(bar);
            if (bars.last && bar == bars.bars - 1) {
                double t = bars.time(bar, 0);
                ctx.out()
                        .add(
                                t,
                                ctx.duration() - t,
                                root(bars.chord(bar * bars.stepsPerBar), lo),
                                ctx.velocity(base + 6));
                startPlayed |= bar == 0;
                break;
            }
            if (!ctx.plays(bar)) {
                startPlayed |= bar == 0; // the bass comes in with its level, not on the section's downbeat
                continue;
            }
            // The second phrase of each pair ends with a pickup: an approach note two sixteenths
            // before the next phrase (when the bar leaves that space), so repeats differ.
            boolean pickup = bar % 4 == 3 && (bar / 4) % 2 == 1 && bar + 1 < bars.bars;
            int lastEventStep = -1;
            for (Bars.Event e : bars.events(rhythm, bar)) {
                lastEventStep = Math.max(lastEventStep, e.step() + e.length() - 1);
            }
            if (pickup && lastEventStep < bars.stepsPerBar - 2) {
                int global = bar * bars.stepsPerBar + bars.stepsPerBar - 2;
                int pitch = approach(bars.nextChord(global), lo, hi);
                ctx.out().add(ctx.onset(global), 2 * bars.stepSec * 0.92, pitch, ctx.velocity(base - 10, global));
            }
            for (Bars.Event e : bars.events(rhythm, bar)) {
                int global = bar * bars.stepsPerBar + e.step();
                if (global > 0 && !startPlayed) {
                    addStartHit(ctx, lo, Math.min(global, 4), base);
                    startPlayed = true;
                }
                Chord chord = bars.chord(global);
                int length = Math.min(e.length(), bars.stepsToChange(global));
                boolean pedalling = pedal >= 0 && bar >= bars.bars - PEDAL_BARS;
                int r = pedalling ? pedal : root(chord, lo);
                int pitch = switch (Character.toUpperCase(e.symbol())) {
                    case 'F' ->
                        pedalling
                                ? (r + 12 <= hi ? r + 12 : r)
                                : r + 7 <= hi ? r + 7 : r - 5; // a pedal keeps its note, in octaves
                    case 'O' -> r + 12 <= hi ? r + 12 : r;
                    case 'T' -> pedalling ? r : r + chord.intervals().get(1);
                    case 'S' ->
                        pedalling
                                ? r
                                : r
                                        + (chord.intervals().size() > 3
                                                ? chord.intervals().get(3)
                                                : 10);
                    case 'A' -> approach(bars.nextChord(global), lo, hi);
                    case 'N' -> root(bars.nextChord(global), lo);
                    default -> r;
                };
                boolean ghost = Character.isLowerCase(e.symbol());
                int velocity = global == 0 ? base + 14 : base + (e.step() % 4 == 0 ? 6 : 0) - (ghost ? 26 : 0);
                ctx.out().add(ctx.onset(global), length * bars.stepSec * 0.92, pitch, ctx.velocity(velocity, global));
                previous = pitch;
                startPlayed = true;
            }
        }
        if (!startPlayed) {
            addStartHit(ctx, lo, 4, sectionBase);
        }
        for (double accent : bars.struckAccents()) {
            ctx.out()
                    .add(
                            accent,
                            bars.stepSec * 4 * 0.92,
                            root(bars.chord(bars.stepAt(accent)), lo),
                            ctx.velocity(sectionBase + 18));
        }
    }

    private void addStartHit(Ctx ctx, int lo, int steps, int base) {
        Bars bars = ctx.bars();
        int pitch = root(bars.chord(0), lo);
        ctx.out().add(bars.time(0), steps * bars.stepSec * 0.92, pitch, ctx.velocity(base + 14));
        previous = pitch;
    }

    /**
     * The pedal note of this section (lowest octave of the register), or -1: only where the style
     * has one, the section is long enough to build (twice the pedal) and the next is a rise.
     */
    static int pedal(Ctx ctx, int lo) {
        String degree = ctx.group().pedal();
        Bars bars = ctx.bars();
        if (degree == null
                || ctx.next() == null
                || bars.last
                || bars.bars < 2 * PEDAL_BARS
                || ctx.next().intensity() - bars.section.intensity() < PEDAL_RISE) {
            return -1;
        }
        int interval = switch (degree) {
            case "V" -> 7;
            case "I" -> 0;
            default -> throw new IllegalStateException("pedal " + degree + ": a style's pedal is V or I");
        };
        return lo + Math.floorMod(bars.tonic + interval - lo, 12);
    }

    /** The chord's root in the lowest octave of the register. */
    static int root(Chord chord, int lo) {
        return lo + Math.floorMod(chord.root() - lo, 12);
    }

    private int approach(Chord next, int lo, int hi) {
        int target = root(next, lo);
        int below = target - 1;
        int above = target + 1;
        if (below < lo) {
            return above;
        }
        return previous >= 0 && previous > target && above <= hi ? above : below;
    }
}
