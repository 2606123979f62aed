package dev.scorecast.engine.live;

import java.util.Comparator;

/**
 * Something the synthesizer is told at a musical position: {@code beat} counted from the start of
 * the performance. Positions are beats, not seconds, so a tempo change moves every later cue with it.
 */
sealed interface Cue {

    double beat();

    /** At one beat: program changes, then a section's channel sounds, then note-offs, then note-ons. */
    int rank();

    /** Orders cues of one rank at one beat: a note's id, so that a note-on and its own note-off never swap. */
    long tie();

    /** A section's sound on {@code channel}: program (drums or not), channel volume and pan, set when it differs from what the channel has. */
    record ChannelSound(double beat, int channel, int program, boolean drums, int volume, int pan) implements Cue {
        public int rank() {
            return 1;
        }

        public long tie() {
            return 0;
        }
    }

    /** A program change within a part (an instrument change between sections of one group). */
    record Program(double beat, int channel, int program, boolean drums) implements Cue {
        public int rank() {
            return 0;
        }

        public long tie() {
            return 0;
        }
    }

    /** Ends note {@code note}; skipped when the key was struck again since by another note. */
    record NoteOff(double beat, int channel, int pitch, long note) implements Cue {
        public int rank() {
            return 2;
        }

        public long tie() {
            return note;
        }
    }

    /** Strikes note {@code note} (an id unique in the performance), ending what still sounds on its key first. */
    record NoteOn(double beat, int channel, int pitch, int velocity, long note) implements Cue {
        public int rank() {
            return 3;
        }

        public long tie() {
            return note;
        }
    }

    Comparator<Cue> ORDER =
            Comparator.comparingDouble(Cue::beat).thenComparingInt(Cue::rank).thenComparingLong(Cue::tie);
}
