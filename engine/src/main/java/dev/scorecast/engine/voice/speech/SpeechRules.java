package dev.scorecast.engine.voice.speech;

import dev.scorecast.engine.error.InvalidParameter;

/**
 * How per-window speech probabilities become spans. Speech starts when a window reaches
 * {@code onThreshold} and lasts until one falls below {@code offThreshold} (hysteresis, so a
 * probability hovering near one threshold does not chop a sentence). Pauses shorter than
 * {@code minSilenceSeconds} are bridged first, then spans shorter than {@code minSpeechSeconds}
 * are dropped, then every span grows by {@code padSeconds} on each side (clipped to the
 * recording) and spans that now touch are joined.
 */
public record SpeechRules(
        double onThreshold, double offThreshold, double minSpeechSeconds, double minSilenceSeconds, double padSeconds) {

    /**
     * Thresholds as Silero's own tooling uses them; 250 ms is about one short word; 300 ms
     * bridges the pauses inside a sentence (with 200 ms, the model's own dips between words split
     * one of our German test sentences in two) while a breath between sentences still separates
     * them; 30 ms of padding keeps soft consonants at the edges.
     */
    public static final SpeechRules DEFAULT = new SpeechRules(0.5, 0.35, 0.25, 0.3, 0.03);

    public SpeechRules {
        if (!(onThreshold > 0 && onThreshold <= 1)) {
            throw new InvalidParameter("onThreshold", "must be in (0, 1], was " + onThreshold);
        }
        if (!(offThreshold >= 0 && offThreshold <= onThreshold)) {
            throw new InvalidParameter("offThreshold", "must be in [0, onThreshold], was " + offThreshold);
        }
        if (!(minSpeechSeconds >= 0 && minSpeechSeconds < 60)) {
            throw new InvalidParameter("minSpeechSeconds", "must be in [0, 60) seconds, was " + minSpeechSeconds);
        }
        if (!(minSilenceSeconds >= 0 && minSilenceSeconds < 60)) {
            throw new InvalidParameter("minSilenceSeconds", "must be in [0, 60) seconds, was " + minSilenceSeconds);
        }
        if (!(padSeconds >= 0 && padSeconds < 10)) {
            throw new InvalidParameter("padSeconds", "must be in [0, 10) seconds, was " + padSeconds);
        }
    }
}
