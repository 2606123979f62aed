package dev.scorecast.engine.music;

import dev.scorecast.engine.music.Part.ProgramChange;
import java.util.ArrayList;
import java.util.List;

/**
 * Effects: a riser (by default GM 119, reverse cymbal) swelling into the next section's first
 * downbeat and ending exactly on it, and an impact (timpani, taiko, synth drum...) exactly on a
 * section's first downbeat when the level asks for it or the section's hit is an impact, drop or
 * crash. Each event switches the part's program to the one the data names.
 */
final class FxWriter implements GroupWriter {
    final List<ProgramChange> programChanges = new ArrayList<>();

    @Override
    public void write(Ctx ctx) {
        Bars bars = ctx.bars();
        StyleBook.Level level = ctx.level();
        String hit = ctx.section().hit() == null ? "" : ctx.section().hit().kind();
        boolean impact = Boolean.TRUE.equals(level.impact()) || ctx.pattern().levelIndex() >= 1
                && (hit.equals("impact") || hit.equals("drop") || hit.equals("crash"));
        double start = bars.time(0);
        if (impact) {
            int program = ctx.group().impactProgram() == null ? ctx.instrument().program() : ctx.group().impactProgram();
            programChanges.add(new ProgramChange(start, program));
            int pitch = 36 + Math.floorMod(bars.tonic - 36, 12);
            ctx.out().add(start, bars.stepSec * 12, pitch, ctx.velocity(112));
        }
        String nextHit = ctx.next() == null || ctx.next().hit() == null ? "" : ctx.next().hit().kind();
        boolean riser = ctx.next() != null && (Boolean.TRUE.equals(level.riser())
                || ctx.pattern().levelIndex() >= 1 && (nextHit.equals("swell") || nextHit.equals("drop")));
        if (riser) {
            // A reverse cymbal is loudest a fixed time after its note-on (riser_seconds: 1.35 s in
            // FluidR3, the default SoundFont); starting it that long before the downbeat puts the
            // peak on the downbeat, where the note is cut. Without riser_seconds: riser_beats.
            double beats = level.riserBeats() == null ? 4 : level.riserBeats();
            double end = ctx.next().start();
            double length = ctx.group().riserSeconds() != null ? ctx.group().riserSeconds() : beats * 4 * bars.stepSec;
            double riserStart = Math.max(start + bars.stepSec * 4, end - length);
            if (end - riserStart > bars.stepSec * 2) {
                int program = ctx.group().riserProgram() == null ? ctx.instrument().program() : ctx.group().riserProgram();
                programChanges.add(new ProgramChange(riserStart, program));
                ctx.out().add(riserStart, end - riserStart, 60, ctx.velocity(72 + 10 * ctx.pattern().levelIndex()));
            }
        }
    }
}
