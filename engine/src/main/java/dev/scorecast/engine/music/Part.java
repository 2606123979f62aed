package dev.scorecast.engine.music;

import dev.scorecast.engine.core.InstrumentGroup;
import java.util.List;

/**
 * One instrument group's notes. {@code program} is the General MIDI program (or kit, when
 * {@code drums}); drums play on MIDI channel 10. Program changes within the group (a section
 * asks for another instrument) are {@link ProgramChange}s; {@code controls} are controller
 * moves in time (the expression curve, CC11, of a sustained part). Notes need not be sorted.
 */
public record Part(
        InstrumentGroup group,
        int program,
        boolean drums,
        double gainDb,
        double pan,
        List<Note> notes,
        List<ProgramChange> programChanges,
        List<Control> controls) {

    public Part {
        notes = List.copyOf(notes);
        programChanges = programChanges == null ? List.of() : List.copyOf(programChanges);
        controls = controls == null ? List.of() : List.copyOf(controls);
    }

    /** A part without controller moves. */
    public Part(
            InstrumentGroup group,
            int program,
            boolean drums,
            double gainDb,
            double pan,
            List<Note> notes,
            List<ProgramChange> programChanges) {
        this(group, program, drums, gainDb, pan, notes, programChanges, List.of());
    }

    /** The same part playing {@code other} notes. */
    public Part withNotes(List<Note> other) {
        return new Part(group, program, drums, gainDb, pan, other, programChanges, controls);
    }

    /** The same part with {@code moves} as its controller moves. */
    public Part withControls(List<Control> moves) {
        return new Part(group, program, drums, gainDb, pan, notes, programChanges, moves);
    }

    /** At {@code time} seconds this part switches to {@code program}. */
    public record ProgramChange(double time, int program) {}

    /** At {@code time} seconds MIDI controller {@code controller} (11: expression) goes to {@code value} 0-127. */
    public record Control(double time, int controller, int value) {
        public static final int EXPRESSION = 11;
        /** General MIDI's mono and poly mode switches: one state of the channel, whichever came last. */
        public static final int MONO_ON = 126;

        public static final int POLY_ON = 127;

        /** Whether this switches the channel between mono and poly mode. */
        public boolean switchesMode() {
            return controller == MONO_ON || controller == POLY_ON;
        }

        public Control {
            if (controller < 0 || controller > 127 || value < 0 || value > 127 || !(time >= 0)) {
                throw new IllegalArgumentException("control " + controller + "=" + value + " at " + time);
            }
        }
    }
}
