package dev.scorecast.engine.voice.speech;

import dev.scorecast.engine.core.Span;
import java.util.List;

/**
 * Finds where people speak in a recording. Implementations are thread-safe and cheap to share:
 * whatever a recording needs (model state, buffers) lives in the {@link SpeechPass} that
 * {@link #open()} returns, so one detector serves many concurrent recordings.
 */
public interface SpeechDetector {

    /** The only sample rate a pass accepts, in Hz; input is mono. */
    int SAMPLE_RATE_HZ = 16_000;

    /** Starts one pass over one recording. */
    SpeechPass open();

    /** Speech in a whole recording held in memory (16 kHz mono, full scale +-1). */
    default List<Span> detect(float[] samples16kMono) {
        try (SpeechPass pass = open()) {
            pass.accept(samples16kMono, 0, samples16kMono.length);
            return pass.finish();
        }
    }
}
