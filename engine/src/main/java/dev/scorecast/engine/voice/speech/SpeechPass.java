package dev.scorecast.engine.voice.speech;

import dev.scorecast.engine.core.Span;
import java.util.List;

/**
 * One recording streaming through a {@link SpeechDetector}: feed it the samples in order, in
 * blocks of any size, then ask for the spans. Not thread-safe; one thread at a time.
 */
public interface SpeechPass extends AutoCloseable {

    /** Appends {@code length} samples (16 kHz mono, full scale +-1) starting at {@code offset}. */
    void accept(float[] samples, int offset, int length);

    /** Ends the recording and returns its speech, in order and not overlapping, in seconds from its start. */
    List<Span> finish();

    /** Releases native resources; safe to call more than once. */
    @Override
    void close();
}
