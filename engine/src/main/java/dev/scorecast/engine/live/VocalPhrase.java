package dev.scorecast.engine.live;

import dev.scorecast.engine.voice.SungNote;
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
     * The notes at {@code playedBpm}: every time scaled, rounded to the microsecond so that the
     * same line at the same tempo is the same list (the singer's cache key) however it was reached.
     */
    List<SungNote> at(double playedBpm) {
        double scale = bpm / playedBpm;
        return notes.stream()
                .map(n -> new SungNote(micro(n.start() * scale), micro(n.duration() * scale), n.pitch(), n.velocity(), n.syllable(), n.melisma()))
                .toList();
    }

    private static double micro(double seconds) {
        return Math.round(seconds * 1e6) / 1e6;
    }
}
