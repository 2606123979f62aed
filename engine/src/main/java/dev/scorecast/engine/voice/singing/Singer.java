package dev.scorecast.engine.voice.singing;

import dev.scorecast.engine.core.AudioRate;
import java.util.List;

/**
 * Sings a vocal line: every voiced moment on its note's pitch, every note starting at its exact
 * sample. Implementations are thread-safe.
 */
public interface Singer {

    /** The rate of every {@link Vocal} a singer returns, in Hz; output is mono. */
    int SAMPLE_RATE_HZ = AudioRate.HZ;

    /**
     * @param notes in time order, not overlapping; the first must carry a syllable
     * @throws dev.scorecast.engine.error.InvalidParameter naming {@code notes[i]...} when the line cannot be sung
     */
    Vocal sing(List<SungNote> notes);
}
