package dev.scorecast.engine.plan;

/**
 * What a client asks of a generated plan (DESIGN.md §5). {@code genre} null: chosen from the
 * analysis. {@code seed} null: derived deterministically from the analysis, so the same video
 * plans the same way twice. {@code voiceoverScript}: the words to speak when {@code withVoiceover},
 * spread over the calm sections; {@code voiceoverVoice} and {@code voiceoverWordsPerMinute} how
 * (null: en-us at 160 words per minute).
 */
public record GenerationOptions(boolean withVocals, boolean withVoiceover, boolean withInstrument, String genre,
                                boolean originalAudio, boolean originalAudioVoiceover, boolean noDucking, boolean multitrack,
                                Long seed, String voiceoverScript, String voiceoverVoice, Integer voiceoverWordsPerMinute) {

    /** Everything off except multitrack; genre and seed chosen from the analysis. */
    public static final GenerationOptions DEFAULT = new GenerationOptions(false, false, false, null, false, false, false, true, null);

    /** Options without a voiceover script or voice. */
    public GenerationOptions(boolean withVocals, boolean withVoiceover, boolean withInstrument, String genre, boolean originalAudio,
                             boolean originalAudioVoiceover, boolean noDucking, boolean multitrack, Long seed) {
        this(withVocals, withVoiceover, withInstrument, genre, originalAudio, originalAudioVoiceover, noDucking, multitrack, seed, null,
                null, null);
    }

    /** The plan-level switches these options ask for. */
    public PlanOptions planOptions() {
        return new PlanOptions(withVocals, withVoiceover, withInstrument, originalAudio, originalAudioVoiceover, !noDucking, multitrack,
                voiceoverVoice, voiceoverWordsPerMinute);
    }
}
