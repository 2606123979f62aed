package dev.scorecast.engine.plan;

/**
 * What a client asks of a generated plan (DESIGN.md §5). {@code genre} null: chosen from the
 * analysis. {@code seed} null: derived deterministically from the analysis, so the same video
 * plans the same way twice. {@code ducking}: the music dips under speech (the API's
 * {@code no_ducking} turned round). {@code voiceoverScript}: the words to speak when
 * {@code withVoiceover}, spread over the calm sections; {@code voiceoverVoice} and
 * {@code voiceoverWordsPerMinute} how (null: en-us at 160 words per minute).
 *
 * <p>Built by name: start from {@link #DEFAULT} and change what differs with the {@code withX}
 * methods, e.g. {@code DEFAULT.withGenre("house").withSeed(7L)}. Seven switches side by side are
 * too easy to pass in the wrong order, so nothing outside this record calls its constructor
 * (GenerationOptionsTest holds the engine to it).
 */
public record GenerationOptions(
        boolean withVocals,
        boolean withVoiceover,
        boolean withInstrument,
        String genre,
        boolean originalAudio,
        boolean originalAudioVoiceover,
        boolean ducking,
        boolean multitrack,
        Long seed,
        String voiceoverScript,
        String voiceoverVoice,
        Integer voiceoverWordsPerMinute) {

    /** Ducking and the stems zip on, everything else off; genre and seed chosen from the analysis. */
    public static final GenerationOptions DEFAULT =
            new GenerationOptions(false, false, false, null, false, false, true, true, null, null, null, null);

    /** These options with the sung layer on or off. */
    public GenerationOptions withVocals(boolean vocals) {
        return new GenerationOptions(
                vocals,
                withVoiceover,
                withInstrument,
                genre,
                originalAudio,
                originalAudioVoiceover,
                ducking,
                multitrack,
                seed,
                voiceoverScript,
                voiceoverVoice,
                voiceoverWordsPerMinute);
    }

    /** These options with the spoken voiceover on or off (its words: {@link #withVoiceoverScript}). */
    public GenerationOptions withVoiceover(boolean voiceover) {
        return new GenerationOptions(
                withVocals,
                voiceover,
                withInstrument,
                genre,
                originalAudio,
                originalAudioVoiceover,
                ducking,
                multitrack,
                seed,
                voiceoverScript,
                voiceoverVoice,
                voiceoverWordsPerMinute);
    }

    /** These options with sections naming specific instruments per group, or not. */
    public GenerationOptions withInstrument(boolean instrument) {
        return new GenerationOptions(
                withVocals,
                withVoiceover,
                instrument,
                genre,
                originalAudio,
                originalAudioVoiceover,
                ducking,
                multitrack,
                seed,
                voiceoverScript,
                voiceoverVoice,
                voiceoverWordsPerMinute);
    }

    /** These options in {@code genre} (null: chosen from the analysis). */
    public GenerationOptions withGenre(String genre) {
        return new GenerationOptions(
                withVocals,
                withVoiceover,
                withInstrument,
                genre,
                originalAudio,
                originalAudioVoiceover,
                ducking,
                multitrack,
                seed,
                voiceoverScript,
                voiceoverVoice,
                voiceoverWordsPerMinute);
    }

    /** These options with the video's own sound kept under the music, or not. */
    public GenerationOptions withOriginalAudio(boolean originalAudio) {
        return new GenerationOptions(
                withVocals,
                withVoiceover,
                withInstrument,
                genre,
                originalAudio,
                originalAudioVoiceover,
                ducking,
                multitrack,
                seed,
                voiceoverScript,
                voiceoverVoice,
                voiceoverWordsPerMinute);
    }

    /** These options with the video's own speech kept as the voiceover, or not. */
    public GenerationOptions withOriginalAudioVoiceover(boolean originalAudioVoiceover) {
        return new GenerationOptions(
                withVocals,
                withVoiceover,
                withInstrument,
                genre,
                originalAudio,
                originalAudioVoiceover,
                ducking,
                multitrack,
                seed,
                voiceoverScript,
                voiceoverVoice,
                voiceoverWordsPerMinute);
    }

    /** These options with the music dipping under speech, or not. */
    public GenerationOptions withDucking(boolean ducking) {
        return new GenerationOptions(
                withVocals,
                withVoiceover,
                withInstrument,
                genre,
                originalAudio,
                originalAudioVoiceover,
                ducking,
                multitrack,
                seed,
                voiceoverScript,
                voiceoverVoice,
                voiceoverWordsPerMinute);
    }

    /** These options with the stems zip asked for or not. */
    public GenerationOptions withMultitrack(boolean multitrack) {
        return new GenerationOptions(
                withVocals,
                withVoiceover,
                withInstrument,
                genre,
                originalAudio,
                originalAudioVoiceover,
                ducking,
                multitrack,
                seed,
                voiceoverScript,
                voiceoverVoice,
                voiceoverWordsPerMinute);
    }

    /** These options with {@code seed} (null: derived from the analysis). */
    public GenerationOptions withSeed(Long seed) {
        return new GenerationOptions(
                withVocals,
                withVoiceover,
                withInstrument,
                genre,
                originalAudio,
                originalAudioVoiceover,
                ducking,
                multitrack,
                seed,
                voiceoverScript,
                voiceoverVoice,
                voiceoverWordsPerMinute);
    }

    /** These options with the voiceover's words (null: none). */
    public GenerationOptions withVoiceoverScript(String voiceoverScript) {
        return new GenerationOptions(
                withVocals,
                withVoiceover,
                withInstrument,
                genre,
                originalAudio,
                originalAudioVoiceover,
                ducking,
                multitrack,
                seed,
                voiceoverScript,
                voiceoverVoice,
                voiceoverWordsPerMinute);
    }

    /** These options with the voiceover spoken in {@code voiceoverVoice}, an espeak-ng voice (null: en-us). */
    public GenerationOptions withVoiceoverVoice(String voiceoverVoice) {
        return new GenerationOptions(
                withVocals,
                withVoiceover,
                withInstrument,
                genre,
                originalAudio,
                originalAudioVoiceover,
                ducking,
                multitrack,
                seed,
                voiceoverScript,
                voiceoverVoice,
                voiceoverWordsPerMinute);
    }

    /** These options with the voiceover spoken at {@code voiceoverWordsPerMinute} (null: 160). */
    public GenerationOptions withVoiceoverWordsPerMinute(Integer voiceoverWordsPerMinute) {
        return new GenerationOptions(
                withVocals,
                withVoiceover,
                withInstrument,
                genre,
                originalAudio,
                originalAudioVoiceover,
                ducking,
                multitrack,
                seed,
                voiceoverScript,
                voiceoverVoice,
                voiceoverWordsPerMinute);
    }

    /** The plan-level switches these options ask for. */
    public PlanOptions planOptions() {
        return new PlanOptions(
                withVocals,
                withVoiceover,
                withInstrument,
                originalAudio,
                originalAudioVoiceover,
                ducking,
                multitrack,
                voiceoverVoice,
                voiceoverWordsPerMinute);
    }
}
