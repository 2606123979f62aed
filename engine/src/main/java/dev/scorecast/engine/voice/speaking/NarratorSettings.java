package dev.scorecast.engine.voice.speaking;

import dev.scorecast.engine.error.InvalidParameter;

/**
 * How a voiceover sounds: {@code voice} is an espeak-ng voice or language ({@code en-us},
 * {@code en-gb}, {@code de}, {@code fr}, {@code es}, ...), optionally with a variant
 * ({@code en-us+f3}); {@code wordsPerMinute} 80-450; {@code pitch} 0-99 (50 is the voice's own).
 * Whether the voice exists is checked by the {@link Narrator} that speaks it.
 */
public record NarratorSettings(String voice, int wordsPerMinute, int pitch) {

    public static final NarratorSettings DEFAULT = new NarratorSettings("en-us", 160, 50);

    public NarratorSettings {
        if (voice == null || !voice.matches("[A-Za-z0-9_./-]{1,40}(\\+[A-Za-z0-9_-]{1,30})?")) {
            throw new InvalidParameter(
                    "voice",
                    "give an espeak-ng voice or language such as en-us, en-gb, de, fr or es"
                            + " (optionally with a variant, e.g. en-us+f3), was '" + voice + "'");
        }
        if (wordsPerMinute < 80 || wordsPerMinute > 450) {
            throw new InvalidParameter(
                    "words_per_minute", "must be in 80-450 (160 is a calm narrator), was " + wordsPerMinute);
        }
        if (pitch < 0 || pitch > 99) {
            throw new InvalidParameter("pitch", "must be in 0-99 (50 is the voice's own), was " + pitch);
        }
    }
}
