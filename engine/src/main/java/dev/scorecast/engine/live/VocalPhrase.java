package dev.scorecast.engine.live;

import dev.scorecast.engine.voice.singing.SungNote;
import java.util.ArrayList;
import java.util.List;

/**
 * One sung line of a section, as the composer wrote it: where it starts in the performance (beats,
 * so a tempo change moves it), its notes timed from its first note at the section's tempo, and the
 * gain and pan of the section's vocals part.
 *
 * @param startBeat the beat of the first note, counted from the start of the performance
 * @param bpm       the section's tempo, at which {@code notes} are timed
 * @param notes     the line's notes, the first at 0 s
 */
record VocalPhrase(double startBeat, double bpm, List<SungNote> notes, double gainDb, double pan) {

    VocalPhrase {
        notes = List.copyOf(notes);
        if (notes.isEmpty() || notes.getFirst().start() != 0) {
            throw new IllegalArgumentException("a phrase starts with its first note at 0 s");
        }
    }

    double beats() {
        return notes.getLast().end() * bpm / 60;
    }

    double endBeat() {
        return startBeat + beats();
    }

    /**
     * The notes at {@code playedBpm}: every start and end scaled and rounded to the microsecond, so
     * that the same line at the same tempo is the same list (the singer's cache key) however it was
     * reached, and notes that touch still touch (the singer refuses overlapping notes).
     */
    List<SungNote> at(double playedBpm) {
        double scale = bpm / playedBpm;
        List<SungNote> out = new ArrayList<>(notes.size());
        double previousEnd = 0;
        for (SungNote n : notes) {
            double start = Math.max(previousEnd, micro(n.start() * scale));
            double end = micro(n.end() * scale);
            out.add(new SungNote(start, end - start, n.pitch(), n.velocity(), n.syllable(), n.melisma()));
            previousEnd = end;
        }
        return List.copyOf(out);
    }

    private static double micro(double seconds) {
        return Math.round(seconds * 1e6) / 1e6;
    }
}
