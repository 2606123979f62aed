package dev.scorecast.engine.music;

import dev.scorecast.engine.music.Part.ProgramChange;
import dev.scorecast.engine.plan.Section;
import java.util.ArrayList;
import java.util.List;

/**
 * Effects: a riser (a noise riser or a reverse crash of bank fx) swelling into the next section's
 * first downbeat and ending exactly on it, and an impact (a sub impact, a cinematic boom, timpani) exactly on a
 * section's first downbeat when the level asks for it or the section's hit is an impact, drop or
 * crash. Cuts inside a section get the same: an impact on a struck one, a riser into a swelled one
 * (a fade). Each event switches the part's program to the one the data names.
 */
final class FxWriter implements GroupWriter {
    /** The riser stops this long before its hit: the moment of quiet that makes the hit a step up (the drop's gap). */
    static final double RISER_GAP_SECONDS = HitClearance.SECONDS;
    /** The key a riser is played on (an impact's is the tonic's, 36-47): every fx sound is a one-shot, the same on every key. */
    static final int RISER_PITCH = 60;

    final List<ProgramChange> programChanges = new ArrayList<>();

    @Override
    public void write(Ctx ctx) {
        Bars bars = ctx.bars();
        StyleBook.Level level = ctx.level();
        String hit = ctx.section().hit() == null ? "" : ctx.section().hit().kind();
        // Every boundary after the first is struck, whatever the level; the first only when the level or the hit asks.
        boolean struck = hit.equals("impact") || hit.equals("drop") || hit.equals("crash");
        boolean impact = Boolean.TRUE.equals(level.impact())
                || struck && (ctx.section().index() > 0 || ctx.pattern().levelIndex() >= 1);
        double start = bars.time(0);
        if (impact) {
            impact(ctx, start);
        }
        if (bars.last && bars.bars > 1) {
            // The final cadence: the closing tonic lands with a hit, so the ending is heard as one.
            impact(ctx, bars.time(bars.bars - 1, 0));
        }
        double earliest = start + bars.stepSec * 4;
        for (Section.Hit accent : ctx.section().accents()) {
            if (Composer.strikes(accent)) {
                impact(ctx, accent.time());
            } else {
                riser(ctx, earliest, accent.time());
            }
            earliest = accent.time() + bars.stepSec * 4;
        }
        String nextHit = ctx.next() == null || ctx.next().hit() == null
                ? ""
                : ctx.next().hit().kind();
        boolean riser = ctx.next() != null
                && (Boolean.TRUE.equals(level.riser())
                        || ctx.pattern().levelIndex() >= 1 && (nextHit.equals("swell") || nextHit.equals("drop")));
        if (riser) {
            riser(ctx, earliest, ctx.next().start());
        }
    }

    private void impact(Ctx ctx, double at) {
        Bars bars = ctx.bars();
        int program = ctx.group().impactSound() == null
                ? ctx.instrument().program()
                : ctx.group().impactSound().address();
        programChanges.add(new ProgramChange(at, program));
        int pitch = 36 + Math.floorMod(bars.tonic - 36, 12);
        // Full force: an impact that the rest of the band can mask is no hit point.
        ctx.out().add(at, bars.stepSec * 12, pitch, 127);
    }

    /**
     * A riser is loudest a fixed time after its note-on (riser_seconds: the fx bank's risers peak at
     * their end, 3.2 s and 2.58 s); starting it that long before its end puts the peak there, where the
     * note is cut, {@link #RISER_GAP_SECONDS} before the hit. Without riser_seconds: riser_beats.
     * Never before {@code earliest}.
     */
    private void riser(Ctx ctx, double earliest, double hit) {
        Bars bars = ctx.bars();
        // The swell stops just short of the hit, so the hit lands in a moment of its own.
        double end = hit - RISER_GAP_SECONDS;
        double beats = ctx.level().riserBeats() == null ? 4 : ctx.level().riserBeats();
        double length = ctx.group().riserSeconds() != null ? ctx.group().riserSeconds() : beats * 4 * bars.stepSec;
        double riserStart = Math.max(earliest, end - length);
        if (end - riserStart > bars.stepSec * 2) {
            int program = ctx.group().riserSound() == null
                    ? ctx.instrument().program()
                    : ctx.group().riserSound().address();
            programChanges.add(new ProgramChange(riserStart, program));
            ctx.out()
                    .add(
                            riserStart,
                            end - riserStart,
                            RISER_PITCH,
                            ctx.velocity(72 + 10 * ctx.pattern().levelIndex()));
        }
    }
}
