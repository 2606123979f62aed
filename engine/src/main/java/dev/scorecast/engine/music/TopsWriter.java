package dev.scorecast.engine.music;

/**
 * Tops: arpeggios and plucks. The level's pattern string indexes the current chord's tones from
 * the bottom of a voice-led close voicing ('0' lowest, '3' the fourth tone or the root an octave
 * up, and so on), '-' holds, '.' rests; {@code gate} shortens each note (plucks).
 */
final class TopsWriter implements GroupWriter {
    private int[] previous;

    @Override
    public void write(Ctx ctx) {
        Bars bars = ctx.bars();
        int lo = ctx.group().lo(67);
        int hi = ctx.group().hi(91);
        for (int bar = 0; bar < bars.bars; bar++) {
            StyleBook.Level level = ctx.level(bar);
            double gate = level.gate() == null ? 0.85 : level.gate();
            int base = level.velocity() == null ? 78 : level.velocity();
            int barStart = bar * bars.stepsPerBar;
            if (bars.last && bar == bars.bars - 1) {
                int[] v = voicing(ctx, barStart, lo, hi);
                double t = bars.time(barStart);
                ctx.out().add(t, ctx.duration() - t, v[v.length - 1], ctx.velocity(base - 6));
                break;
            }
            if (!ctx.plays(bar)) {
                continue;
            }
            for (Bars.Event e : bars.events(ctx.tones(bar), bar)) {
                if (!Character.isDigit(e.symbol())) {
                    continue;
                }
                int global = barStart + e.step();
                int[] v = voicing(ctx, global, lo, hi);
                int index = e.symbol() - '0';
                int pitch = v[index % v.length] + 12 * (index / v.length);
                while (pitch > hi + 7) {
                    pitch -= 12;
                }
                int length = Math.min(e.length(), bars.stepsToChange(global));
                int velocity = base + (e.step() % 4 == 0 ? 8 : 0) + (e.step() % 2 == 1 ? -8 : 0);
                ctx.out().add(ctx.onset(global), length * bars.stepSec * gate, pitch, ctx.velocity(velocity, global));
            }
        }
    }

    private int[] voicing(Ctx ctx, int global, int lo, int hi) {
        Bars bars = ctx.bars();
        int[] v = Voicings.lead(
                previous, bars.chord(global).pitchClasses(), "close", 3, lo, Math.max(lo + 14, (lo + hi) / 2 + 6));
        previous = v;
        return v;
    }
}
