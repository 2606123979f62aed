package dev.scorecast.engine.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.PlanOptions;
import dev.scorecast.engine.render.MixSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the plan's options make of the video's own sound, the voiceover and the ducking. */
class MixChoicesTest {
    static final Path ORIGINAL = Path.of("original.wav");
    static final Path VOICEOVER = Path.of("voiceover.wav");
    static final List<Span> SPEECH = List.of(new Span(2, 3.5));

    static Plan plan(boolean originalAudio, boolean dialogue, boolean ducking) {
        return new Plan(
                1,
                "p",
                1,
                "pop",
                10,
                new PlanOptions(false, false, false, originalAudio, dialogue, ducking, true),
                Plan.Master.DEFAULT,
                List.of());
    }

    @Test
    void dialogueIsASpeechSourceAndTheMusicDucksUnderIt() {
        MixSettings s = Execution.mixSettings(plan(false, true, true), Optional.of(ORIGINAL), Optional.empty(), SPEECH);
        assertEquals(Optional.of(ORIGINAL), s.originalAudioWav());
        assertEquals(MixSettings.OriginalAudioRole.DIALOGUE, s.originalAudioRole());
        assertTrue(s.ducking().active());
        assertEquals(SPEECH, s.ducking().speech());
    }

    @Test
    void backgroundSoundSitsUnderTheMusic() {
        MixSettings s =
                Execution.mixSettings(plan(true, false, true), Optional.of(ORIGINAL), Optional.empty(), List.of());
        assertEquals(MixSettings.OriginalAudioRole.BACKGROUND, s.originalAudioRole());
        assertEquals(Execution.ORIGINAL_AUDIO_GAIN_DB, s.originalAudioGainDb());
        assertFalse(s.ducking().active(), "no speech, nothing to duck under");
    }

    @Test
    void noDuckingKeepsTheVoiceoverButNotTheDip() {
        MixSettings s =
                Execution.mixSettings(plan(false, false, false), Optional.of(ORIGINAL), Optional.of(VOICEOVER), SPEECH);
        assertEquals(Optional.empty(), s.originalAudioWav(), "the video's sound is dropped unless an option keeps it");
        assertEquals(Optional.of(VOICEOVER), s.voiceoverWav());
        assertFalse(s.ducking().active());
    }
}
