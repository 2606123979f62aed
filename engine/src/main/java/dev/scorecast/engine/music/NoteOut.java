package dev.scorecast.engine.music;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Collects one part's notes, keeping every note inside [0, duration]: a note starting at or
 * after the end is dropped, one ringing past it is cut at the end.
 */
final class NoteOut {
    private static final double MIN_SECONDS = 0.01;
    private final double duration;
    private final List<Note> notes = new ArrayList<>();

    NoteOut(double duration) {
        this.duration = duration;
    }

    void add(double start, double length, int pitch, int velocity) {
        double s = Math.max(0, start);
        double end = Math.min(duration, start + length);
        if (s >= duration - MIN_SECONDS || end - s < MIN_SECONDS / 2) {
            return;
        }
        notes.add(new Note(s, end - s, Math.clamp(pitch, 0, 127), Math.clamp(velocity, 1, 127)));
    }

    /** Lengthens the last note of {@code pitch} that ends at {@code at} (a tie); false if none. */
    boolean extend(int pitch, double at, double newEnd) {
        for (int i = notes.size() - 1; i >= 0 && i >= notes.size() - 12; i--) {
            Note n = notes.get(i);
            if (n.pitch() == pitch && Math.abs(n.end() - at) < 1e-6) {
                notes.set(i, new Note(n.start(), Math.min(duration, newEnd) - n.start(), n.pitch(), n.velocity()));
                return true;
            }
        }
        return false;
    }

    List<Note> notes() {
        return notes;
    }

    double duration() {
        return duration;
    }

    /** A timing offset of up to +-{@code ms} milliseconds. */
    static double jitter(SplittableRandom rng, double ms) {
        return ms <= 0 ? 0 : (rng.nextDouble() * 2 - 1) * ms / 1000;
    }

    /** A velocity offset of up to +-{@code amount}. */
    static int wobble(SplittableRandom rng, int amount) {
        return amount <= 0 ? 0 : rng.nextInt(-amount, amount + 1);
    }
}
