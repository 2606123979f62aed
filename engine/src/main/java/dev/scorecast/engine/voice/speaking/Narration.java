package dev.scorecast.engine.voice.speaking;

import dev.scorecast.engine.core.Span;

/**
 * Spoken text: mono float samples at {@code sampleRateHz} and {@code spoken}, the span from the
 * first to the last audible sample (seconds from the start of {@code samples}).
 */
public record Narration(float[] samples, int sampleRateHz, Span spoken) {

    public double durationSeconds() {
        return samples.length / (double) sampleRateHz;
    }
}
