package dev.scorecast.engine.render;

import dev.scorecast.engine.core.InstrumentGroup;
import java.nio.file.Path;
import java.util.Objects;

/**
 * One instrument group rendered alone: a 48 kHz stereo 32-bit float WAV of exactly the score's
 * length, the part's own gain and pan already applied.
 *
 * @param peakDbfs the largest sample magnitude in dB re full scale; -Infinity for a silent stem
 */
public record Stem(InstrumentGroup group, Path wav, double peakDbfs) {
    public Stem {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(wav, "wav");
    }
}
