package dev.scorecast.engine.voice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.dsp.PolyphaseResampler;
import dev.scorecast.engine.error.InvalidParameter;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class YinTest {

    @ParameterizedTest
    @CsvSource({
        "82.41, 48000",
        "110, 48000",
        "220, 48000",
        "261.63, 22050",
        "440, 48000",
        "523.25, 16000",
        "987.77, 48000"
    })
    void sinesAreExactWithinAFewCents(double hz, int rate) {
        List<PitchFrame> frames = Yin.track(VoiceTestAudio.sine(hz, 1.0, rate, 0.5), rate);
        assertEquals(1.0 / 0.02, frames.size(), 4);
        double worst = 0;
        for (PitchFrame f : frames) {
            assertTrue(f.voiced(), "frame at " + f.timeSeconds());
            worst = Math.max(worst, Math.abs(f.centsFrom(hz)));
        }
        assertTrue(worst < 3, hz + " Hz: worst frame off by " + worst + " cents");
    }

    @Test
    void harmonicsDoNotFoolIt() {
        int rate = 48_000;
        float[] x = VoiceTestAudio.sine(150, 0.5, rate, 0.3);
        float[] h2 = VoiceTestAudio.sine(300, 0.5, rate, 0.4);
        float[] h3 = VoiceTestAudio.sine(450, 0.5, rate, 0.3);
        for (int i = 0; i < x.length; i++) {
            x[i] += h2[i] + h3[i];
        }
        for (PitchFrame f : Yin.track(x, rate)) {
            assertEquals(0, f.centsFrom(150), 3);
        }
    }

    @Test
    void silenceAndNoiseAreUnvoiced() {
        assertTrue(Yin.track(new float[48_000], 48_000).stream().noneMatch(PitchFrame::voiced));
        assertTrue(Yin.track(new float[100], 48_000).isEmpty());
        Random random = new Random(3);
        float[] hiss = new float[48_000];
        for (int i = 0; i < hiss.length; i++) {
            hiss[i] = (float) (random.nextGaussian() * 0.1);
        }
        long voiced =
                Yin.track(hiss, 48_000).stream().filter(PitchFrame::voiced).count();
        assertTrue(voiced <= 1, voiced + " noise frames called voiced");
    }

    @Test
    void framesAreTwentyMillisecondsApartAndCentred() {
        List<PitchFrame> frames = Yin.track(VoiceTestAudio.sine(200, 0.5, 48_000, 0.5), 48_000);
        assertEquals(0.01, frames.getFirst().timeSeconds(), 1e-9);
        assertEquals(0.02, frames.get(1).timeSeconds() - frames.getFirst().timeSeconds(), 1e-9);
        assertFalse(frames.isEmpty());
    }

    @Test
    void badSettingsNameTheirField() {
        assertEquals(
                "sampleRateHz",
                assertThrows(InvalidParameter.class, () -> Yin.track(new float[10], 100))
                        .field());
        assertEquals(
                "minHz",
                assertThrows(InvalidParameter.class, () -> new YinSettings(0.02, 0.02, 500, 400, 0.1, 0.3, -50))
                        .field());
        assertEquals(
                "maxHz",
                assertThrows(
                                InvalidParameter.class,
                                () -> Yin.track(
                                        new float[10],
                                        2000 * 2 + 100,
                                        new YinSettings(0.02, 0.02, 60, 2100, 0.1, 0.3, -50)))
                        .field());
    }

    @Test
    void resamplingKeepsPitchAndLength() {
        float[] x = VoiceTestAudio.sine(330, 1.0, 22_050, 0.5);
        float[] y = PolyphaseResampler.resample(x, 22_050, 48_000);
        assertEquals(48_000, y.length);
        for (PitchFrame f : Yin.track(y, 48_000)) {
            assertEquals(0, f.centsFrom(330), 2);
        }
    }
}
