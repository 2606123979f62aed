package dev.scorecast.engine.voice.singing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.dsp.PolyphaseResampler;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.voice.PitchFrame;
import dev.scorecast.engine.voice.VoiceTestAudio;
import dev.scorecast.engine.voice.Yin;
import dev.scorecast.engine.voice.YinSettings;
import dev.scorecast.engine.voice.speech.SileroSpeechDetector;
import dev.scorecast.engine.voice.speech.SpeechDetector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Sings a short melody and measures it: pitch with {@link Yin}, words with Silero VAD. */
class EspeakSingerTest {

    static EspeakSinger singer;
    static List<SungNote> melody;
    static Vocal vocal;
    static double singSeconds;

    @BeforeAll
    static void sing() {
        singer = EspeakSinger.create();
        melody = melody(0.2);
        long t0 = System.nanoTime();
        vocal = singer.sing(melody);
        singSeconds = (System.nanoTime() - t0) / 1e9;
        VoiceTestAudio.writeWav("sung.wav", vocal.samples(), vocal.sampleRateHz());
        System.out.printf(
                "singer: %.2f s of vocals sung in %.2f s (first call, cold caches)%n",
                vocal.durationSeconds(), singSeconds);
    }

    /**
     * Two lines with a rest and a breath between them: 15 notes, a 0.9 s note and a 0.8 s melisma
     * note (both with vibrato), a three-note melisma on "way" and two-syllable words.
     */
    static List<SungNote> melody(double at) {
        List<SungNote> notes = new ArrayList<>();
        double[][] line1 = {
            {0.00, 0.30, 60}, {0.30, 0.30, 62}, {0.60, 0.30, 64}, {0.90, 0.30, 65}, {1.20, 0.30, 64}, {1.50, 0.90, 67}
        };
        String[] words1 = {"hold", "me", "un-", "der", "the", "light"};
        for (int i = 0; i < line1.length; i++) {
            notes.add(SungNote.sung(at + line1[i][0], line1[i][1], (int) line1[i][2], 100, words1[i]));
        }
        double[][] line2 = {
            {2.90, 0.30, 67}, {3.20, 0.30, 65}, {3.50, 0.25, 64}, {3.75, 0.25, 62}, {4.00, 0.30, 60}, {4.30, 0.35, 62}
        };
        String[] words2 = {"we", "are", "fly-", "ing", "a-", "way"};
        for (int i = 0; i < line2.length; i++) {
            notes.add(SungNote.sung(at + line2[i][0], line2[i][1], (int) line2[i][2], 100, words2[i]));
        }
        notes.add(SungNote.melisma(at + 4.65, 0.25, 64, 100));
        notes.add(SungNote.melisma(at + 4.90, 0.80, 60, 100));
        return notes;
    }

    @Test
    void voicedFramesSitOnTheirNotes() {
        List<PitchFrame> frames = Yin.track(vocal.samples(), vocal.sampleRateHz());
        int voiced = 0;
        int onPitch = 0;
        int voicedInRests = 0;
        for (PitchFrame f : frames) {
            if (!f.voiced()) {
                continue;
            }
            SungNote note = noteAt(f.timeSeconds());
            if (note == null) {
                voicedInRests++;
                continue;
            }
            voiced++;
            if (Math.abs(f.centsFrom(PitchFrame.midiToHz(note.pitch()))) <= 50) {
                onPitch++;
            }
        }
        double share = onPitch / (double) voiced;
        System.out.printf(
                "singer: %d of %d voiced 20 ms frames within +-50 cents of the note (%.1f %%); %d voiced frames in rests%n",
                onPitch, voiced, 100 * share, voicedInRests);
        assertTrue(voiced > 100, "too few voiced frames: " + voiced);
        assertTrue(share >= 0.8, "only " + 100 * share + " % on pitch");
    }

    @Test
    void longNotesHaveVibrato() {
        // The 0.9 s note on "light": its pitch swings by tens of cents once the vibrato has faded in.
        SungNote light = melody.get(5);
        List<PitchFrame> frames = Yin.track(vocal.samples(), vocal.sampleRateHz(), YinSettings.DEFAULT.withHop(0.01));
        double min = Double.MAX_VALUE;
        double max = -Double.MAX_VALUE;
        for (PitchFrame f : frames) {
            double c = f.voiced() ? f.centsFrom(PitchFrame.midiToHz(light.pitch())) : Double.NaN;
            // Past the fade-in and before the final consonant; an octave slip of the tracker is not vibrato.
            if (f.timeSeconds() > light.start() + 0.5 && f.timeSeconds() < light.end() - 0.15 && Math.abs(c) < 150) {
                min = Math.min(min, c);
                max = Math.max(max, c);
            }
        }
        System.out.printf("singer: vibrato on the long note swings %.0f to %.0f cents%n", min, max);
        assertTrue(max - min > 35 && max - min < 110, "vibrato swing " + min + " .. " + max);
    }

    @Test
    void theWordsAreSpeechToTheVad() {
        float[] at16k =
                PolyphaseResampler.resample(vocal.samples(), vocal.sampleRateHz(), SpeechDetector.SAMPLE_RATE_HZ);
        List<Span> spans;
        try (SileroSpeechDetector vad = SileroSpeechDetector.load()) {
            spans = vad.detect(at16k);
        }
        double sungSeconds = melody.stream().mapToDouble(SungNote::duration).sum();
        double covered = 0;
        for (Span s : spans) {
            for (SungNote n : melody) {
                covered += Math.max(0, Math.min(s.end(), n.end()) - Math.max(s.start(), n.start()));
            }
        }
        System.out.printf(
                "singer: Silero VAD finds speech %s, covering %.0f %% of the sung time%n",
                spans, 100 * covered / sungSeconds);
        assertFalse(spans.isEmpty(), "the VAD heard no speech");
        assertTrue(covered / sungSeconds >= 0.5, "speech covers only " + covered / sungSeconds);
    }

    @Test
    void everyNoteStartsAtItsSample() {
        int first = (int) Math.round(melody.getFirst().start() * Singer.SAMPLE_RATE_HZ);
        assertEquals(first, vocal.noteStartSamples().getFirst());
        for (int i = 0; i < first; i++) {
            assertEquals(0f, vocal.samples()[i], "sample " + i + " before the first note");
        }
        int sounding = first;
        while (Math.abs(vocal.samples()[sounding]) < 1e-4) {
            sounding++;
        }
        assertTrue(sounding - first < 48, "the voice starts " + (sounding - first) + " samples late");
        // Moving every note by 37 samples moves the whole vocal by exactly 37 samples.
        Vocal shifted = singer.sing(melody(0.2 + 37.0 / Singer.SAMPLE_RATE_HZ));
        for (int i = 0; i < melody.size(); i++) {
            assertEquals(
                    vocal.noteStartSamples().get(i) + 37,
                    shifted.noteStartSamples().get(i));
        }
        float[] a = Arrays.copyOfRange(vocal.samples(), 0, vocal.samples().length - 100);
        float[] b = Arrays.copyOfRange(shifted.samples(), 37, 37 + a.length);
        assertArrayEquals(a, b, 1e-6f);
    }

    @Test
    void singingAgainIsFasterAndTheSame() {
        long t0 = System.nanoTime();
        Vocal again = singer.sing(melody);
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf(
                "singer: %.2f s of vocals sung again in %.2f s (warm caches)%n", again.durationSeconds(), seconds);
        assertArrayEquals(vocal.samples(), again.samples());
    }

    @Test
    void badLinesAreRefusedByField() {
        InvalidParameter empty = assertThrows(InvalidParameter.class, () -> singer.sing(List.of()));
        assertEquals("notes", empty.field());
        InvalidParameter overlap = assertThrows(
                InvalidParameter.class,
                () -> singer.sing(
                        List.of(SungNote.sung(0, 0.5, 60, 100, "la"), SungNote.sung(0.3, 0.5, 62, 100, "la"))));
        assertEquals("notes[1].start", overlap.field());
        InvalidParameter melismaFirst =
                assertThrows(InvalidParameter.class, () -> singer.sing(List.of(SungNote.melisma(0, 0.5, 60, 100))));
        assertEquals("notes[0].melisma", melismaFirst.field());
        assertEquals(
                "pitch",
                assertThrows(InvalidParameter.class, () -> SungNote.sung(0, 0.5, 120, 100, "la"))
                        .field());
        assertEquals(
                "syllable",
                assertThrows(InvalidParameter.class, () -> SungNote.sung(0, 0.5, 60, 100, " "))
                        .field());
        assertEquals(
                "language",
                assertThrows(InvalidParameter.class, () -> new EspeakSinger("xx-nonsense", Duration.ofSeconds(5)))
                        .field());
    }

    private static SungNote noteAt(double t) {
        for (SungNote n : melody) {
            if (t >= n.start() && t < n.end()) {
                return n;
            }
        }
        return null;
    }
}
