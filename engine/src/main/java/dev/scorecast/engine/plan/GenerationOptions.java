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

    /** These options in {@code genre} (null: chosen from the analysis). */
    public GenerationOptions withGenre(String genre) {
        return new GenerationOptions(withVocals, withVoiceover, withInstrument, genre, originalAudio, originalAudioVoiceover, noDucking,
                multitrack, seed, voiceoverScript, voiceoverVoice, voiceoverWordsPerMinute);
    }

    /** These options with {@code seed} (null: derived from the analysis). */
    public GenerationOptions withSeed(Long seed) {
        return new GenerationOptions(withVocals, withVoiceover, withInstrument, genre, originalAudio, originalAudioVoiceover, noDucking,
                multitrack, seed, voiceoverScript, voiceoverVoice, voiceoverWordsPerMinute);
    }

    /** These options with the sung layer on or off. */
    public GenerationOptions withVocals(boolean vocals) {
        return new GenerationOptions(vocals, withVoiceover, withInstrument, genre, originalAudio, originalAudioVoiceover, noDucking,
                multitrack, seed, voiceoverScript, voiceoverVoice, voiceoverWordsPerMinute);
    }

    /** These options with the stems zip asked for or not. */
    public GenerationOptions withMultitrack(boolean multitrack) {
        return new GenerationOptions(withVocals, withVoiceover, withInstrument, genre, originalAudio, originalAudioVoiceover, noDucking,
                multitrack, seed, voiceoverScript, voiceoverVoice, voiceoverWordsPerMinute);
    }

    /** The plan-level switches these options ask for. */
    public PlanOptions planOptions() {
        return new PlanOptions(withVocals, withVoiceover, withInstrument, originalAudio, originalAudioVoiceover, !noDucking, multitrack,
                voiceoverVoice, voiceoverWordsPerMinute);
    }
}
