package dev.scorecast.engine.plan;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * The plan-level switches of DESIGN.md §5 and §7. {@code instrument}: sections name specific
 * instruments per group ({@code with_instrument}). {@code ducking}: music dips under speech.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record PlanOptions(boolean vocals, boolean voiceover, boolean instrument, boolean originalAudio,
                          boolean originalAudioVoiceover, boolean ducking, boolean multitrack) {

    public static final PlanOptions DEFAULT = new PlanOptions(false, false, false, false, false, true, true);
}
