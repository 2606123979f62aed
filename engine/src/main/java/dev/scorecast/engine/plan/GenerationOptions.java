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
        return toBuilder().withVocals(vocals).build();
    }

    /** These options with the spoken voiceover on or off (its words: {@link #withVoiceoverScript}). */
    public GenerationOptions withVoiceover(boolean voiceover) {
        return toBuilder().withVoiceover(voiceover).build();
    }

    /** These options with sections naming specific instruments per group, or not. */
    public GenerationOptions withInstrument(boolean instrument) {
        return toBuilder().withInstrument(instrument).build();
    }

    /** These options in {@code genre} (null: chosen from the analysis). */
    public GenerationOptions withGenre(String genre) {
        return toBuilder().genre(genre).build();
    }

    /** These options with the video's own sound kept under the music, or not. */
    public GenerationOptions withOriginalAudio(boolean originalAudio) {
        return toBuilder().originalAudio(originalAudio).build();
    }

    /** These options with the video's own speech kept as the voiceover, or not. */
    public GenerationOptions withOriginalAudioVoiceover(boolean originalAudioVoiceover) {
        return toBuilder().originalAudioVoiceover(originalAudioVoiceover).build();
    }

    /** These options with the music dipping under speech, or not. */
    public GenerationOptions withDucking(boolean ducking) {
        return toBuilder().ducking(ducking).build();
    }

    /** These options with the stems zip asked for or not. */
    public GenerationOptions withMultitrack(boolean multitrack) {
        return toBuilder().multitrack(multitrack).build();
    }

    /** These options with {@code seed} (null: derived from the analysis). */
    public GenerationOptions withSeed(Long seed) {
        return toBuilder().seed(seed).build();
    }

    /** These options with the voiceover's words (null: none). */
    public GenerationOptions withVoiceoverScript(String voiceoverScript) {
        return toBuilder().voiceoverScript(voiceoverScript).build();
    }

    /** These options with the voiceover spoken in {@code voiceoverVoice}, an espeak-ng voice (null: en-us). */
    public GenerationOptions withVoiceoverVoice(String voiceoverVoice) {
        return toBuilder().voiceoverVoice(voiceoverVoice).build();
    }

    /** These options with the voiceover spoken at {@code voiceoverWordsPerMinute} (null: 160). */
    public GenerationOptions withVoiceoverWordsPerMinute(Integer voiceoverWordsPerMinute) {
        return toBuilder().voiceoverWordsPerMinute(voiceoverWordsPerMinute).build();
    }

    /** A copy to change by name: {@code x.toBuilder().withVocals(v).build()}. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** The fields of {@link GenerationOptions} set by name, starting from a value ({@link #toBuilder}). */
    public static final class Builder {
        private boolean withVocals;
        private boolean withVoiceover;
        private boolean withInstrument;
        private String genre;
        private boolean originalAudio;
        private boolean originalAudioVoiceover;
        private boolean ducking;
        private boolean multitrack;
        private Long seed;
        private String voiceoverScript;
        private String voiceoverVoice;
        private Integer voiceoverWordsPerMinute;

        private Builder(GenerationOptions from) {
            withVocals = from.withVocals;
            withVoiceover = from.withVoiceover;
            withInstrument = from.withInstrument;
            genre = from.genre;
            originalAudio = from.originalAudio;
            originalAudioVoiceover = from.originalAudioVoiceover;
            ducking = from.ducking;
            multitrack = from.multitrack;
            seed = from.seed;
            voiceoverScript = from.voiceoverScript;
            voiceoverVoice = from.voiceoverVoice;
            voiceoverWordsPerMinute = from.voiceoverWordsPerMinute;
        }

        public Builder withVocals(boolean value) {
            withVocals = value;
            return this;
        }

        public Builder withVoiceover(boolean value) {
            withVoiceover = value;
            return this;
        }

        public Builder withInstrument(boolean value) {
            withInstrument = value;
            return this;
        }

        public Builder genre(String value) {
            genre = value;
            return this;
        }

        public Builder originalAudio(boolean value) {
            originalAudio = value;
            return this;
        }

        public Builder originalAudioVoiceover(boolean value) {
            originalAudioVoiceover = value;
            return this;
        }

        public Builder ducking(boolean value) {
            ducking = value;
            return this;
        }

        public Builder multitrack(boolean value) {
            multitrack = value;
            return this;
        }

        public Builder seed(Long value) {
            seed = value;
            return this;
        }

        public Builder voiceoverScript(String value) {
            voiceoverScript = value;
            return this;
        }

        public Builder voiceoverVoice(String value) {
            voiceoverVoice = value;
            return this;
        }

        public Builder voiceoverWordsPerMinute(Integer value) {
            voiceoverWordsPerMinute = value;
            return this;
        }

        public GenerationOptions build() {
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
