package dev.scorecast.engine.voice.singing;

import java.util.List;

/**
 * A sung line: mono float samples at {@code sampleRateHz} (full scale +-1), starting at time 0 of
 * the notes it was sung from, and the sample at which each note begins
 * ({@code round(start * sampleRateHz)}), in the order of the notes.
 */
public record Vocal(float[] samples, int sampleRateHz, List<Integer> noteStartSamples) {

    public Vocal {
        noteStartSamples = List.copyOf(noteStartSamples);
    }

    public double durationSeconds() {
        return samples.length / (double) sampleRateHz;
    }
}
