package dev.scorecast.engine.music;

import java.util.Arrays;
import java.util.List;

/**
 * Harmony and pads: the level's comping rhythm ('X' strike, 'x' soft strike, 'N' and 'n' the next chord struck
 * early, '-' hold, '.' rest), varied over the phrase (styles/phrases.json),
 * with voice-led voicings of the genre's style. A strike that holds across a chord change is
 * re-struck on the new chord. Pads tie a voicing that does not change instead of re-striking.
 * The final bar is the tonic chord ringing to the end.
 */
final class ChordWriter implements GroupWriter {
    private final boolean pads;
    private int[] previous;

    ChordWriter(boolean pads) {
        this.pads = pads;
    }

    @Override
    public void write(Ctx ctx) {
        Bars bars = ctx.bars();
        int lo = ctx.group().lo(pads ? 52 : 55);
        int hi = ctx.group().hi(pads ? 79 : 76);
        String sectionStyle = ctx.level().voicing() != null
                ? ctx.level().voicing()
                : ctx.group().voicing();
        int sectionVoices =
                ctx.level().voices() == null ? (pads ? 4 : 3) : ctx.level().voices();
        int sectionBase =
                ctx.level().velocity() == null ? (pads ? 70 : 84) : ctx.level().velocity();
        for (int bar = 0; bar < bars.bars; bar++) {
            StyleBook.Level level = ctx.level(bar);
            String style =
                    level.voicing() != null ? level.voicing() : ctx.group().voicing();
            int voices = level.voices() == null ? (pads ? 4 : 3) : level.voices();
            int base = level.velocity() == null ? (pads ? 70 : 84) : level.velocity();
            if (bars.last && bar == bars.bars - 1) {
                double t = bars.time(bar, 0);
                strike(
                        ctx,
                        bar * bars.stepsPerBar,
                        bars.chord(bar * bars.stepsPerBar),
                        ctx.duration() - t,
                        style,
                        voices,
                        lo,
                        hi,
                        base - 4,
                        true);
                break;
            }
            if (!ctx.plays(bar)) {
                continue;
            }
            for (Bars.Event e : bars.events(ctx.rhythm(bar), bar)) {
                int global = bar * bars.stepsPerBar + e.step();
                int remaining = e.length();
                boolean first = true;
                while (remaining > 0) {
                    int length = Math.min(remaining, bars.stepsToChange(global));
                    int velocity = (Character.isLowerCase(e.symbol()) ? base - 18 : base)
                            + (global % bars.stepsPerBar == 0 ? 6 : 0)
                            - (first ? 0 : 6);
                    double seconds = length * bars.stepSec * (pads ? 1.0 : 0.94);
                    // N strikes the next chord early: the change anticipated, held into the bar it belongs to.
                    boolean early = Character.toUpperCase(e.symbol()) == 'N';
                    strike(
                            ctx,
                            global,
                            early ? bars.nextChord(global) : bars.chord(global),
                            seconds,
                            style,
                            voices,
                            lo,
                            hi,
                            velocity,
                            pads);
                    global += length;
                    remaining -= length;
                    first = false;
                }
            }
        }
        if (!pads) {
            // A stab of the sounding chord on each cut inside the section: it re-strikes any held voice.
            for (double accent : bars.struckAccents()) {
                List<Integer> tones = Voicings.tones(
                        bars.chord(bars.stepAt(accent)), ctx.group().color(), bars);
                int[] voicing = Voicings.lead(previous, tones, sectionStyle, sectionVoices, lo, hi);
                for (int pitch : voicing) {
                    ctx.out().add(accent, bars.stepSec * 3, pitch, ctx.velocity(sectionBase + 18));
                }
            }
        }
    }

    /** {@code tie}: on the grid exactly (no humanising), and for pads tied to an unchanged voicing. */
    private void strike(
            Ctx ctx,
            int global,
            Chord chord,
            double seconds,
            String style,
            int voices,
            int lo,
            int hi,
            int velocity,
            boolean tie) {
        Bars bars = ctx.bars();
        List<Integer> tones = Voicings.tones(chord, ctx.group().color(), bars);
        int[] voicing = Voicings.lead(previous, tones, style, voices, lo, hi);
        double start = tie ? bars.time(global) : ctx.onset(global);
        boolean tied = pads && tie && previous != null && Arrays.equals(previous, voicing);
        // A guitar strums: down (low string first) on the beat, up (high first, quicker and lighter)
        // off it, spread over the genre's strum_ms; other instruments roll their voices a few ms.
        boolean guitar = ctx.instrument().program() >= 24
                && ctx.instrument().program() <= 31
                && ctx.feel().strumMs() > 0;
        boolean up = guitar && global % 4 != 0;
        double spread = pads || tie || global == 0
                ? 0
                : guitar ? ctx.feel().strumMs() / 1000 * (up ? 0.6 : 1) / Math.max(1, voicing.length - 1) : 0.004;
        for (int i = 0; i < voicing.length; i++) {
            int pitch = voicing[i];
            if (tied && ctx.out().extend(pitch, start, start + seconds)) {
                continue;
            }
            int order = up ? voicing.length - 1 - i : i;
            double strum = order * spread;
            int weight = up ? -10 + 2 * (voicing.length - 1 - i) : (i == voicing.length - 1 ? 0 : -4);
            ctx.out().add(start + strum, seconds - strum, pitch, ctx.velocity(velocity + weight, global));
        }
        previous = voicing;
    }
}
