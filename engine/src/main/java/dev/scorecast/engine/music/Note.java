package dev.scorecast.engine.music;

/** One note: start and length in seconds, MIDI pitch 0-127, velocity 1-127. */
public record Note(double start, double duration, int pitch, int velocity) {

    public Note {
        if (pitch < 0 || pitch > 127 || velocity < 1 || velocity > 127 || !(duration > 0) || !(start >= 0)) {
            throw new IllegalArgumentException("note " + start + "s +" + duration + "s pitch " + pitch + " velocity " + velocity);
        }
    }

    public double end() {
        return start + duration;
    }
}
