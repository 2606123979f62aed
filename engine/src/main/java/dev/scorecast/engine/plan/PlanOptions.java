package dev.scorecast.engine.plan;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * The plan-level switches of DESIGN.md §5 and §7. {@code instrument}: sections name specific
 * instruments per group ({@code with_instrument}). {@code ducking}: music dips under speech.
 * {@code voiceoverVoice} (an espeak-ng voice such as en-us, en-gb, de, fr, es, optionally with a
 * variant like en-us+f3) and {@code voiceoverWordsPerMinute} (80-450) say how voiceover lines are
 * spoken; null means en-us at 160.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record PlanOptions(
        boolean vocals,
        boolean voiceover,
        boolean instrument,
        boolean originalAudio,
        boolean originalAudioVoiceover,
        boolean ducking,
        boolean multitrack,
        String voiceoverVoice,
        Integer voiceoverWordsPerMinute) {

    public static final PlanOptions DEFAULT = new PlanOptions(false, false, false, false, false, true, true);
    public static final String DEFAULT_VOICE = "en-us";
    public static final int DEFAULT_WORDS_PER_MINUTE = 160;

    @JsonCreator
    public PlanOptions {
        voiceoverVoice = voiceoverVoice == null || voiceoverVoice.isBlank() ? DEFAULT_VOICE : voiceoverVoice;
        voiceoverWordsPerMinute = voiceoverWordsPerMinute == null ? DEFAULT_WORDS_PER_MINUTE : voiceoverWordsPerMinute;
    }

    /** Switches with the default voice. */
    public PlanOptions(
            boolean vocals,
            boolean voiceover,
            boolean instrument,
            boolean originalAudio,
            boolean originalAudioVoiceover,
            boolean ducking,
            boolean multitrack) {
        this(vocals, voiceover, instrument, originalAudio, originalAudioVoiceover, ducking, multitrack, null, null);
    }
}
