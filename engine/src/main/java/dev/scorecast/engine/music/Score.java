package dev.scorecast.engine.music;

import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.voice.singing.SungNote;
import java.util.List;

/**
 * A plan composed into notes: what the renderer plays and the MIDI file holds. Times in seconds
 * from the start of the video (the tempo map turns them into beats for MIDI). Immutable.
 *
 * @param duration  seconds of audio to render, the video's length
 * @param tempoMap  tempo from each time on, in order, the first at 0
 * @param parts     one per sounding instrument group
 * @param accents   the planned accents (section boundaries and hits) the sync report checks
 * @param vocal     the sung line, syllable by note, for the singer (its notes are also the vocals part, for MIDI)
 * @param drumFills the drummers' fills the drums play (Groove MIDI Dataset performances), in time order, for provenance
 */
public record Score(
        double duration,
        List<TempoChange> tempoMap,
        List<Part> parts,
        List<Accent> accents,
        List<SungNote> vocal,
        List<DrumFillPlayed> drumFills) {

    public Score {
        tempoMap = List.copyOf(tempoMap);
        parts = List.copyOf(parts);
        accents = List.copyOf(accents);
        vocal = vocal == null ? List.of() : List.copyOf(vocal);
        drumFills = drumFills == null ? List.of() : List.copyOf(drumFills);
    }

    /** A score whose drums play no drummer's fill. */
    public Score(
            double duration, List<TempoChange> tempoMap, List<Part> parts, List<Accent> accents, List<SungNote> vocal) {
        this(duration, tempoMap, parts, accents, vocal, List.of());
    }

    /** A score with no sung line. */
    public Score(double duration, List<TempoChange> tempoMap, List<Part> parts, List<Accent> accents) {
        this(duration, tempoMap, parts, accents, List.of());
    }

    /** What the synthesizer plays: every part but the vocals, which the singer sings from {@link #vocal}. */
    public Score instrumental() {
        return new Score(
                duration,
                tempoMap,
                parts.stream().filter(p -> p.group() != InstrumentGroup.VOCALS).toList(),
                accents,
                vocal,
                drumFills);
    }

    /** From {@code time} seconds on, {@code bpm} beats per minute in {@code meter} ("4/4"). */
    public record TempoChange(double time, double bpm, String meter) {}

    /** A drummer's fill played from {@code time} seconds: {@code performance} is its file in the Groove MIDI Dataset. */
    public record DrumFillPlayed(double time, String performance) {}

    /** A moment the music must mark: a section's first downbeat or a hit. */
    public record Accent(double time, String kind, int section) {}
}
