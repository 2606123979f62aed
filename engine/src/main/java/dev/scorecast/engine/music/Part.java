package dev.scorecast.engine.music;

import dev.scorecast.engine.plan.InstrumentGroup;
import java.util.List;

/**
 * One instrument group's notes. {@code program} is the General MIDI program (or kit, when
 * {@code drums}); drums play on MIDI channel 10. Program changes within the group (a section
 * asks for another instrument) are {@link ProgramChange}s. Notes need not be sorted.
 */
public record Part(InstrumentGroup group, int program, boolean drums, double gainDb, double pan,
                   List<Note> notes, List<ProgramChange> programChanges) {

    public Part {
        notes = List.copyOf(notes);
        programChanges = programChanges == null ? List.of() : List.copyOf(programChanges);
    }

    /** The same part playing {@code other} notes. */
    public Part withNotes(List<Note> other) {
        return new Part(group, program, drums, gainDb, pan, other, programChanges);
    }

    /** At {@code time} seconds this part switches to {@code program}. */
    public record ProgramChange(double time, int program) {}
}
