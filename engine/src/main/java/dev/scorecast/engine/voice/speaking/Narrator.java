package dev.scorecast.engine.voice.speaking;

import dev.scorecast.engine.core.AudioRate;

/** Speaks text for a voiceover. Implementations are thread-safe. */
public interface Narrator {

    /** The rate of every {@link Narration} a narrator returns, in Hz; output is mono. */
    int SAMPLE_RATE_HZ = AudioRate.HZ;

    /**
     * @throws dev.scorecast.engine.error.InvalidParameter naming {@code text} or the settings field at fault
     */
    Narration speak(String text, NarratorSettings settings);
}
