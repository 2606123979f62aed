package dev.scorecast.engine.music;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects one part's notes, keeping every note and its release inside the video: a note that
 * would still sound {@link #TAIL_SECONDS} before the end is released there, so its tail (the
 * sample's release, the reverb) dies away by the last frame instead of being cut off mid-sustain;
 * a note starting after that is dropped.
 */
final class NoteOut {
    /** The time a released note takes to die away: the closing chord is let go this long before the last frame. */
    static final double TAIL_SECONDS = 1.0;

    private static final double MIN_SECONDS = 0.01;
    private final double duration;
    private final double releaseBy;
    private final List<Note> notes = new ArrayList<>();

    NoteOut(double duration) {
        this.duration = duration;
        // A very short video keeps at least half of itself for notes.
        this.releaseBy = Math.max(duration / 2, duration - TAIL_SECONDS);
    }

    void add(double start, double length, int pitch, int velocity) {
        double s = Math.max(0, start);
        double end = Math.min(releaseBy, start + length);
        if (s >= releaseBy - MIN_SECONDS || end - s < MIN_SECONDS / 2) {
            return;
        }
        notes.add(new Note(s, end - s, Math.clamp(pitch, 0, 127), Math.clamp(velocity, 1, 127)));
    }

    /** When every note has been let go: {@link #TAIL_SECONDS} before the end. */
    double releaseBy() {
        return releaseBy;
    }

    /** Lengthens the last note of {@code pitch} that ends at {@code at} (a tie); false if none. */
    boolean extend(int pitch, double at, double newEnd) {
        for (int i = notes.size() - 1; i >= 0 && i >= notes.size() - 12; i--) {
            Note n = notes.get(i);
            if (n.pitch() == pitch && Math.abs(n.end() - at) < 1e-6) {
                notes.set(i, new Note(n.start(), Math.min(releaseBy, newEnd) - n.start(), n.pitch(), n.velocity()));
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
}
