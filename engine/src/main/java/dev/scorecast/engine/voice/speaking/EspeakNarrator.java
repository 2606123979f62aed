package dev.scorecast.engine.voice.speaking;

import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.dsp.PolyphaseResampler;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.voice.Espeak;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * {@link Narrator} built on espeak-ng. The text goes to espeak-ng on stdin as plain text (never on a
 * command line, never as SSML), so any text is safe to speak; the result is resampled to 48 kHz.
 */
public final class EspeakNarrator implements Narrator {

    /** The longest text one call speaks, in characters (about ten minutes of speech). */
    public static final int MAX_TEXT_CHARS = 10_000;
    /** Samples quieter than this (about -45 dBFS) are not part of the spoken span. */
    private static final float AUDIBLE = 0.0056f;

    private final Espeak espeak;
    private volatile Set<String> variants;

    public EspeakNarrator(Duration timeout) {
        this.espeak = new Espeak(timeout);
    }

    /** 60 s per espeak-ng run at most. */
    public static EspeakNarrator create() {
        return new EspeakNarrator(Duration.ofSeconds(60));
    }

    @Override
    public Narration speak(String text, NarratorSettings settings) {
        if (settings == null) {
            throw new InvalidParameter("voice", "give the voice settings (voice, words per minute, pitch)");
        }
        if (text == null || text.isBlank()) {
            throw new InvalidParameter("text", "give the words to speak");
        }
        if (text.length() > MAX_TEXT_CHARS) {
            throw new InvalidParameter(
                    "text", "is " + text.length() + " characters; split it into parts of at most " + MAX_TEXT_CHARS);
        }
        checkVoice(settings.voice());
        float[] spoken = espeak.speak(
                List.of(
                        "-v",
                        settings.voice(),
                        "-s",
                        Integer.toString(settings.wordsPerMinute()),
                        "-p",
                        Integer.toString(settings.pitch())),
                text);
        float[] samples = PolyphaseResampler.resample(spoken, Espeak.SAMPLE_RATE_HZ, SAMPLE_RATE_HZ);
        int first = 0;
        while (first < samples.length && Math.abs(samples[first]) < AUDIBLE) {
            first++;
        }
        int last = samples.length - 1;
        while (last > first && Math.abs(samples[last]) < AUDIBLE) {
            last--;
        }
        if (first >= last) {
            throw new InvalidParameter(
                    "text", "has nothing speakable in it; give words, not only punctuation or symbols");
        }
        return new Narration(
                samples,
                SAMPLE_RATE_HZ,
                new Span(first / (double) SAMPLE_RATE_HZ, (last + 1) / (double) SAMPLE_RATE_HZ));
    }

    private void checkVoice(String voice) {
        String[] parts = voice.toLowerCase().split("\\+", 2);
        boolean known = espeak.voices().contains(parts[0]);
        if (known && parts.length == 2) {
            Set<String> v = variants;
            if (v == null) {
                variants = v = espeak.variants();
            }
            known = v.contains(parts[1]);
        }
        if (!known) {
            throw new InvalidParameter(
                    "voice",
                    "'" + voice + "' is not an espeak-ng voice; use a language such as en-us, en-gb, de, fr or es"
                            + " (optionally with a variant such as +f3), as `espeak-ng --voices` lists them");
        }
    }
}
