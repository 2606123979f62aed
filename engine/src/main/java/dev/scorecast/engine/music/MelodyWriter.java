package dev.scorecast.engine.music;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Melody from motifs. Each section gets a new 1-2 bar motif (a rhythm on the 16th grid and a
 * contour in scale steps: mostly steps, a leap now and then, answered by a step back). Phrases of
 * {@code phrase_bars} state the motif on the current chord, repeat it as a sequence (moved by a
 * scale step, rhythm varied) and end with an answer: the motif's first half and a long note on a
 * chord tone (the root on every second phrase). Notes on beats one and three snap to chord
 * tones, the rest to the scale. The density (notes per bar) is the level's. The final bar is the
 * tonic, held to the end.
 */
final class MelodyWriter implements GroupWriter {
    private int lastPitch = -1;

    record MNote(int step, int length, int offset) {}

    @Override
    public void write(Ctx ctx) {
        Bars bars = ctx.bars();
        SplittableRandom rng = ctx.rng();
        StyleBook.GroupStyle g = ctx.group();
        int lo = g.lo(60);
        int hi = g.hi(84);
        int motifBars = g.motifBars() == null ? 1 : Math.clamp(g.motifBars(), 1, 2);
        int phraseBars = g.phraseBars() == null ? 4 : Math.max(motifBars, g.phraseBars());
        double density = ctx.level().density() == null ? 3 : ctx.level().density();
        double stepRatio = g.stepRatio() == null ? 0.7 : g.stepRatio();
        double syncopation = g.syncopation() == null ? 0.25 : g.syncopation();
        int base = ctx.level().velocity() == null ? 86 : ctx.level().velocity();
        int spb = bars.stepsPerBar;
        List<MNote> motif = motif(rng, motifBars * spb, density * motifBars, stepRatio, syncopation);
        int playable = bars.last ? bars.bars - 1 : bars.bars;
        double center = lo + (hi - lo) * (0.35 + 0.08 * ctx.pattern().levelIndex());
        if (lastPitch < 0) {
            lastPitch = (int) Math.round(center);
        }
        int phrase = 0;
        for (int phraseStart = 0; phraseStart < playable; phraseStart += phraseBars, phrase++) {
            int phraseEnd = Math.min(playable, phraseStart + phraseBars);
            int slots = Math.max(1, (phraseEnd - phraseStart) / motifBars);
            for (int slot = 0; slot < slots; slot++) {
                int slotBar = phraseStart + slot * motifBars;
                int slotSteps = (slot == slots - 1 ? phraseEnd - slotBar : motifBars) * spb;
                int first = slotBar * spb;
                // Anchor: the chord tone nearest the line's current height, pulled toward the middle.
                int target = (int) Math.round((lastPitch * 2 + center) / 3);
                int anchorPitch = nearestChordTone(bars.chord(first), target, lo, hi);
                int anchor = bars.nearestDegree(anchorPitch);
                List<MNote> notes = motif;
                if (slot > 0 && slot < slots - 1) {
                    anchor += rng.nextInt(2) == 0 ? -1 : 1;
                    notes = varyRhythm(motif, rng);
                } else if (slot == 0 && phrase % 2 == 1) {
                    notes = varyRhythm(motif, rng);
                }
                boolean answer = slot == slots - 1 && (slots > 1 || phraseEnd - phraseStart >= 1);
                int limit = answer ? Math.max(spb / 2, slotSteps / 2) : slotSteps;
                int lastEnd = 0;
                for (MNote n : notes) {
                    if (n.step() >= limit || n.step() >= slotSteps) {
                        continue;
                    }
                    int global = first + n.step();
                    int pitch = bars.degreePitch(anchor + n.offset());
                    pitch = fold(pitch, lo, hi);
                    if (global % (spb / 2) == 0) {
                        pitch = nearestChordTone(bars.chord(global), pitch, lo, hi);
                    }
                    int length = Math.min(n.length(), Math.min(limit, slotSteps) - n.step());
                    emit(ctx, global, length, pitch, base + (global % 4 == 0 ? 8 : 0));
                    lastEnd = n.step() + length;
                }
                if (answer) {
                    // The answer's closing note: a chord tone on a beat, held, then a breath.
                    int closeStep = Math.max(limit, (lastEnd + 3) / 4 * 4);
                    if (closeStep < slotSteps - 2) {
                        int global = first + closeStep;
                        Chord chord = bars.chord(global);
                        int pitch = phrase % 2 == 1
                                ? chord.rootNear(lastPitch)
                                : nearestChordTone(chord, lastPitch, lo, hi);
                        pitch = fold(pitch, lo, hi);
                        int length = Math.max(2, slotSteps - closeStep - Math.min(4, spb / 4));
                        emit(ctx, global, length, pitch, base);
                    }
                }
            }
        }
        if (bars.last) {
            int global = (bars.bars - 1) * spb;
            int pitch = fold(bars.chord(global).rootNear(lastPitch), lo, hi);
            double t = bars.time(global);
            ctx.out().add(t, ctx.duration() - t, pitch, ctx.velocity(base - 4));
            lastPitch = pitch;
        }
    }

    /** One note, unless its bar is at a level the genre's melody rests at (the bar's intensity sets its level too). */
    private void emit(Ctx ctx, int global, int length, int pitch, int velocity) {
        int bar = global / ctx.bars().stepsPerBar;
        if (!ctx.plays(bar)) {
            return;
        }
        double seconds = length * ctx.bars().stepSec * 0.95;
        ctx.out().add(ctx.onset(global), seconds, pitch, ctx.velocity(velocity, global));
        lastPitch = pitch;
    }

    /** A motif: onsets chosen with weight on beats (and off-beats by syncopation), a stepwise contour. */
    static List<MNote> motif(SplittableRandom rng, int steps, double notes, double stepRatio, double syncopation) {
        int count = Math.clamp((int) Math.round(notes + rng.nextDouble() - 0.5), 1, steps / 2);
        boolean[] on = new boolean[steps];
        if (rng.nextDouble() < 0.75) {
            on[0] = true;
        } else {
            on[rng.nextInt(2) == 0 ? 2 : 4] = true;
        }
        int placed = 1;
        int guard = 0;
        while (placed < count && guard++ < 1000) {
            int s = rng.nextInt(steps - 1);
            double weight = s % 4 == 0 ? 1.0 : s % 2 == 0 ? 0.35 + syncopation : 0.08 + syncopation * 0.3;
            if (!on[s] && rng.nextDouble() < weight) {
                on[s] = true;
                placed++;
            }
        }
        List<MNote> out = new ArrayList<>();
        int offset = 0;
        int direction = rng.nextInt(2) == 0 ? 1 : -1;
        boolean leapt = false;
        for (int s = 0; s < steps; s++) {
            if (!on[s]) {
                continue;
            }
            int next = s + 1;
            while (next < steps && !on[next]) {
                next++;
            }
            int length = next - s;
            if (next == steps) {
                length = Math.min(length, 8);
            }
            if (!out.isEmpty()) {
                if (leapt) {
                    direction = -direction; // recover from a leap by a step the other way
                    offset += direction;
                    leapt = false;
                } else if (rng.nextDouble() < stepRatio) {
                    if (rng.nextDouble() < 0.3) {
                        direction = -direction;
                    }
                    offset += rng.nextDouble() < 0.12 ? 0 : direction;
                } else {
                    offset += direction * (2 + rng.nextInt(3));
                    leapt = true;
                }
                if (Math.abs(offset) > 6) {
                    direction = offset > 0 ? -1 : 1;
                    offset += 2 * direction;
                }
            }
            out.add(new MNote(s, length, offset));
        }
        return out;
    }

    /** The motif with one note split in two or two notes merged. */
    static List<MNote> varyRhythm(List<MNote> motif, SplittableRandom rng) {
        List<MNote> out = new ArrayList<>(motif);
        int i = rng.nextInt(out.size());
        MNote n = out.get(i);
        if (n.length() >= 4) {
            int half = n.length() / 2;
            out.set(i, new MNote(n.step(), half, n.offset()));
            out.add(i + 1, new MNote(n.step() + half, n.length() - half, n.offset() + (rng.nextInt(2) == 0 ? 1 : -1)));
        } else if (i + 1 < out.size()) {
            MNote m = out.get(i + 1);
            out.set(i, new MNote(n.step(), n.length() + m.length(), n.offset()));
            out.remove(i + 1);
        }
        return out;
    }

    static int fold(int pitch, int lo, int hi) {
        while (pitch > hi) {
            pitch -= 12;
        }
        while (pitch < lo) {
            pitch += 12;
        }
        return pitch;
    }

    /** The pitch of a chord tone nearest {@code near}, inside [lo, hi]. */
    static int nearestChordTone(Chord chord, int near, int lo, int hi) {
        int best = near;
        int bestDistance = Integer.MAX_VALUE;
        for (int p = lo; p <= hi; p++) {
            if (chord.contains(p) && Math.abs(p - near) < bestDistance) {
                best = p;
                bestDistance = Math.abs(p - near);
            }
        }
        return best;
    }
}
