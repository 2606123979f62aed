package dev.scorecast.engine.live;

import java.util.Comparator;

/**
 * A MIDI message at a musical position: {@code beat} counted from the start of the performance.
 * Positions are beats, not seconds, so a tempo change moves every later cue with it. {@code note}
 * ties a note-off to its note-on: a note-off whose note was re-struck since is skipped.
 */
record Cue(double beat, int order, int command, int channel, int data1, int data2, long note) {
    static final int CONTROL = 0;
    static final int OFF = 1;
    static final int ON = 2;

    /** At one beat: programs and controllers first, then note-offs, then note-ons. */
    static final Comparator<Cue> ORDER = Comparator.comparingDouble(Cue::beat).thenComparingInt(Cue::order).thenComparingLong(Cue::note);
}
