package dev.scorecast.engine.voice.speaking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.dsp.PolyphaseResampler;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.voice.VoiceTestAudio;
import dev.scorecast.engine.voice.speech.SileroSpeechDetector;
import dev.scorecast.engine.voice.speech.SpeechDetector;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EspeakNarratorTest {

    static final EspeakNarrator NARRATOR = EspeakNarrator.create();

    @ParameterizedTest
    @ValueSource(strings = {"en-us", "en-gb", "de", "fr", "es", "en-us+f3"})
    void speaksEachLanguageWithASpanInsideTheAudio(String voice) {
        Narration narration =
                NARRATOR.speak("Scorecast writes music for every video.", new NarratorSettings(voice, 160, 50));
        Span spoken = narration.spoken();
        System.out.printf(
                "voice %s: %.2f s of audio, speech from %.3f to %.3f s%n",
                voice, narration.durationSeconds(), spoken.start(), spoken.end());
        assertEquals(48_000, narration.sampleRateHz());
        assertTrue(spoken.start() >= 0 && spoken.start() < 0.2, spoken.toString());
        assertTrue(spoken.end() <= narration.durationSeconds() && spoken.length() > 1.0, spoken.toString());
    }

    @Test
    void theSpanIsWhatTheVadHears() {
        Narration narration = NARRATOR.speak(
                "Every upload gets its own soundtrack, scored to the cuts of the picture.", NarratorSettings.DEFAULT);
        float[] at16k = PolyphaseResampler.resample(
                narration.samples(), narration.sampleRateHz(), SpeechDetector.SAMPLE_RATE_HZ);
        float[] padded = new float[at16k.length + 16_000 * 2];
        System.arraycopy(at16k, 0, padded, 16_000, at16k.length);
        List<Span> heard;
        try (SileroSpeechDetector vad = SileroSpeechDetector.load()) {
            heard = vad.detect(padded);
        }
        // The VAD may split the sentence at its comma; together its spans cover the spoken span.
        System.out.printf(
                "voice: spoken span %s, the VAD hears %s (1 s later in its padded copy)%n", narration.spoken(), heard);
        assertTrue(!heard.isEmpty() && heard.size() <= 2, heard.toString());
        assertEquals(1 + narration.spoken().start(), heard.getFirst().start(), 0.3);
        assertEquals(1 + narration.spoken().end(), heard.getLast().end(), 0.3);
        VoiceTestAudio.writeWav("voiceover.wav", narration.samples(), narration.sampleRateHz());
    }

    @Test
    void fasterRateShorterSpeech() {
        String text = "The quick brown fox jumps over the lazy dog, twice over.";
        double slow = NARRATOR.speak(text, new NarratorSettings("en-gb", 120, 50))
                .spoken()
                .length();
        double fast = NARRATOR.speak(text, new NarratorSettings("en-gb", 300, 50))
                .spoken()
                .length();
        assertTrue(fast < slow * 0.6, "120 wpm " + slow + " s, 300 wpm " + fast + " s");
    }

    @Test
    void textThatLooksLikeOptionsIsJustSpoken() {
        Narration narration = NARRATOR.speak("--help -w /tmp/x.wav $(rm -rf /) <speak>", NarratorSettings.DEFAULT);
        assertTrue(narration.spoken().length() > 0.5);
    }

    @Test
    void badParametersNameTheirField() {
        assertEquals(
                "voice",
                assertThrows(
                                InvalidParameter.class,
                                () -> NARRATOR.speak("hello", new NarratorSettings("xx-nowhere", 160, 50)))
                        .field());
        assertEquals(
                "voice",
                assertThrows(
                                InvalidParameter.class,
                                () -> NARRATOR.speak("hello", new NarratorSettings("en-us+nosuchvariant", 160, 50)))
                        .field());
        assertEquals(
                "voice",
                assertThrows(InvalidParameter.class, () -> new NarratorSettings("en us; rm", 160, 50))
                        .field());
        assertEquals(
                "words_per_minute",
                assertThrows(InvalidParameter.class, () -> new NarratorSettings("en-us", 20, 50))
                        .field());
        assertEquals(
                "pitch",
                assertThrows(InvalidParameter.class, () -> new NarratorSettings("en-us", 160, 100))
                        .field());
        assertEquals(
                "text",
                assertThrows(InvalidParameter.class, () -> NARRATOR.speak("  ", NarratorSettings.DEFAULT))
                        .field());
        assertEquals(
                "text",
                assertThrows(
                                InvalidParameter.class,
                                () -> NARRATOR.speak(
                                        "a".repeat(EspeakNarrator.MAX_TEXT_CHARS + 1), NarratorSettings.DEFAULT))
                        .field());
    }
}
