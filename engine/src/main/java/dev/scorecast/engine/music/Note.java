package dev.scorecast.engine.music;

/**
 * One note: start and length in seconds, MIDI pitch 0-127, velocity 1-127, and its {@code take}:
 * which strike of its key in its part it is (0, 1, 2, ...), so that a sampler's round robins are
 * part of the score ({@link Takes}). A take of -1 leaves the choice to the player.
 */
public record Note(double start, double duration, int pitch, int velocity, int take) {

    public Note {
        if (pitch < 0
                || pitch > 127
                || velocity < 1
                || velocity > 127
                || !(duration > 0)
                || !(start >= 0)
                || take < -1) {
            throw new IllegalArgumentException("note " + start + "s +" + duration + "s pitch " + pitch + " velocity "
                    + velocity + " take " + take);
        }
    }

    /** A note whose take the player chooses (before {@link Takes} numbers the part). */
    public Note(double start, double duration, int pitch, int velocity) {
        this(start, duration, pitch, velocity, -1);
    }

    public double end() {
        return start + duration;
    }

    /** The same note, sounding from {@code newStart} for {@code newDuration} seconds. */
    public Note moved(double newStart, double newDuration) {
        return new Note(newStart, newDuration, pitch, velocity, take);
    }
}
