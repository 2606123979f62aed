package dev.scorecast.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.scorecast.engine.plan.GenerationOptions;
import dev.scorecast.engine.style.GenreCatalog;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The generation options a generate request asks for, field by field: the API's names onto the options' own. */
class ScoringOptionsTest {
    private static final Scoring SCORING = new Scoring(GenreCatalog.builtIn(), null);

    private static GenerationOptions options(String json) {
        JsonFields fields = JsonFields.parse(
                new ObjectMapper(),
                new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)),
                10_000,
                "request body");
        GenerationOptions options = SCORING.options(fields);
        fields.check();
        return options;
    }

    @Test
    void aRequestWithoutOptionsGetsTheDefaults() {
        assertEquals(GenerationOptions.DEFAULT, options("{}"));
    }

    @Test
    void noDuckingTurnsDuckingOff() {
        assertEquals(GenerationOptions.DEFAULT.withDucking(false), options("{\"no_ducking\": true}"));
        assertEquals(GenerationOptions.DEFAULT, options("{\"no_ducking\": false}"));
    }

    @Test
    void everyFieldLandsOnItsOption() {
        GenerationOptions expected = GenerationOptions.DEFAULT
                .withVocals(true)
                .withVoiceover(true)
                .withInstrument(true)
                .withGenre("house")
                .withOriginalAudio(true)
                .withOriginalAudioVoiceover(true)
                .withDucking(false)
                .withMultitrack(false)
                .withSeed(7L)
                .withVoiceoverScript("Hello there.")
                .withVoiceoverVoice("en-gb")
                .withVoiceoverWordsPerMinute(180);
        assertEquals(expected, options("""
                {"with_vocals": true, "with_voiceover": true, "with_instrument": true, "genre": "house", "original_audio": true,
                 "original_audio_voiceover": true, "no_ducking": true, "multitrack": false, "seed": 7,
                 "voiceover_script": "Hello there.", "voiceover_voice": "en-gb", "voiceover_rate": 180}"""));
    }
}
