package dev.scorecast.engine.conform;

import dev.scorecast.engine.conform.ConformedScore.Kept;
import dev.scorecast.engine.music.HitClearance;
import dev.scorecast.engine.music.Note;
import dev.scorecast.engine.music.Part;
import dev.scorecast.engine.music.Part.Control;
import dev.scorecast.engine.music.Part.ProgramChange;
import java.util.ArrayList;
import java.util.List;

/**
 * What the source still holds where kept music comes in after other music (a pad's chord, a long bass
 * note), played as the source played it: from its own onset, moved with the stretch, on a part of its
 * own whose expression is 0 until the entry and then the source's. From the entry on, the note is the
 * old render's note at the same point of its envelope and its sample, so the kept shot sounds as it did
 * from its first beat. Struck again at the entry instead (as before 2026-11-28), the note's attack
 * sounded against the old render's decaying note for up to a bar: the kept shots beside a changed join
 * matched the old audio over 68 to 79 % of their length (docs/EDITING.md).
 *
 * <p>One such part per instrument group; a stretch's held notes take it only when it is free by then
 * (the previous stretch's have ended), all were struck on one program and none started before the
 * video: otherwise the caller strikes them again at the entry. The rise of the expression from 0 is
 * smoothed by the players (Gervill ramps a voice's gain over its control block; the sampler glides its
 * channel gain), so it does not click.
 */
final class HeldOver {
    /** Silence between two stretches' held notes on the part, so one's expression never gates the other's tail. */
    private static final double GAP_SECONDS = 0.05;

    private final Part source;
    private final List<Double> clears;
    private final double clearSeconds;
    private final List<Note> notes = new ArrayList<>();
    private final List<Control> controls = new ArrayList<>();
    private final List<ProgramChange> programChanges = new ArrayList<>();
    /** The program of the part's first notes, and the one in force after the last taken. */
    private int program = -1;

    private int current = -1;
    private double freeFrom = 0;

    /**
     * Held notes of {@code source}'s part; {@code clears} are the cuts struck anew, before which the
     * band lets go ({@link HitClearance}, {@code clearSeconds} for this group).
     */
    HeldOver(Part source, List<Double> clears, double clearSeconds) {
        this.source = source;
        this.clears = clears;
        this.clearSeconds = clearSeconds;
    }

    /**
     * Takes {@code held}, the source's notes sounding across {@code k}'s entry at {@code entry} (new
     * time), for this part; false when they cannot be played from their onsets here.
     */
    boolean take(List<Note> held, Kept k, double entry) {
        if (held.isEmpty()) {
            return true;
        }
        double first = held.stream().mapToDouble(Note::start).min().orElseThrow() + k.shift();
        int struckOn = ConformedScore.programAt(source, held.getFirst().start());
        if (first < 0
                || first < freeFrom
                || held.stream().anyMatch(n -> ConformedScore.programAt(source, n.start()) != struckOn)) {
            return false;
        }
        List<Note> moved = new ArrayList<>();
        double last = first;
        for (Note n : held) {
            double start = n.start() + k.shift();
            double end = Math.min(n.end(), k.sourceEnd()) + k.shift();
            moved.add(n.moved(start, end - start));
            last = Math.max(last, end);
        }
        double until = last;
        // Within the stretch, the band lets go before the cuts struck anew as the rest of the part does.
        HitClearance.clear(
                moved,
                clears.stream().filter(t -> t > entry + 1e-6 && t < until).toList(),
                clearSeconds);
        if (moved.isEmpty()) {
            return true;
        }
        notes.addAll(moved);
        if (program < 0) {
            program = struckOn;
        } else if (struckOn != current) {
            programChanges.add(new ProgramChange(first, struckOn));
        }
        current = struckOn;
        gate(k, first, entry, until);
        freeFrom = until + GAP_SECONDS;
        return true;
    }

    /**
     * The controllers: from {@code first} those the source had set by then with the expression at 0, the
     * source's other moves until the entry, at the entry the source's expression then, after it the
     * source's moves as they were.
     */
    private void gate(Kept k, double first, double entry, double until) {
        double sourceFirst = first - k.shift();
        double sourceEntry = entry - k.shift();
        double sourceUntil = until - k.shift();
        List<Control> before = new ArrayList<>();
        List<Control> toEntry = new ArrayList<>();
        for (Control c : source.controls()) {
            if (c.time() <= sourceFirst + 1e-9) {
                before.add(c);
            } else if (c.time() <= sourceEntry + 1e-9) {
                toEntry.add(c);
            } else if (c.time() < sourceUntil - 1e-9) {
                controls.add(new Control(c.time() + k.shift(), c.controller(), c.value()));
            }
        }
        for (Control c : ConformedScore.inForce(before, first)) {
            controls.add(c.controller() == Control.EXPRESSION ? new Control(first, Control.EXPRESSION, 0) : c);
        }
        int expression = 127;
        for (Control c : before) {
            if (c.controller() == Control.EXPRESSION) {
                expression = c.value();
            }
        }
        for (Control c : toEntry) {
            if (c.controller() == Control.EXPRESSION) {
                expression = c.value();
            } else {
                controls.add(new Control(c.time() + k.shift(), c.controller(), c.value()));
            }
        }
        controls.add(new Control(entry, Control.EXPRESSION, expression));
    }

    /** The part playing what was taken, like {@code base} in gain and pan; null when nothing was. */
    Part part(Part base, double duration) {
        List<Note> playing = notes.stream().filter(n -> n.start() < duration).toList();
        if (playing.isEmpty()) {
            return null;
        }
        List<Control> moves = new ArrayList<>(controls);
        moves.sort((a, b) -> Double.compare(a.time(), b.time()));
        return new Part(base.group(), program, false, base.gainDb(), base.pan(), playing, programChanges, moves);
    }
}
