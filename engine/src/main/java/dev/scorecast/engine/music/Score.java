package dev.scorecast.engine.music;

import java.util.List;

/**
 * A plan composed into notes: what the renderer plays and the MIDI file holds. Times in seconds
 * from the start of the video (the tempo map turns them into beats for MIDI). Immutable.
 *
 * @param duration  seconds of audio to render, the video's length
 * @param tempoMap  tempo from each time on, in order, the first at 0
 * @param parts     one per sounding instrument group
 * @param accents   the planned accents (section boundaries and hits) the sync report checks
 */
public record Score(double duration, List<TempoChange> tempoMap, List<Part> parts, List<Accent> accents) {

    public Score {
        tempoMap = List.copyOf(tempoMap);
        parts = List.copyOf(parts);
        accents = List.copyOf(accents);
    }

    /** From {@code time} seconds on, {@code bpm} beats per minute in {@code meter} ("4/4"). */
    public record TempoChange(double time, double bpm, String meter) {}

    /** A moment the music must mark: a section's first downbeat or a hit. */
    public record Accent(double time, String kind, int section) {}
}
