package dev.scorecast.engine.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.io.WavFiles;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MixerTest {

    static SoundBank bank;
    static Path stemsDir;
    static List<Stem> stems;

    @BeforeAll
    static void render(@TempDir Path dir) {
        bank = SoundBank.load(Fixtures.TIM);
        stemsDir = dir;
        stems = new Renderer(bank).render(Fixtures.score(10, 5), dir.resolve("stems"), f -> { });
    }

    @AfterAll
    static void close() {
        bank.close();
    }

    @Test
    void masterIsMinus14LufsAndUnderMinus1DbtpAsFfmpegMeasuresIt(@TempDir Path dir) {
        Path master = dir.resolve("master.wav");
        MasterReport report = Mixer.master(stems, MixSettings.standard(), master);
        Fixtures.Ebur128 ff = Fixtures.ebur128(master);
        System.out.printf("master: ours %.2f LUFS %.2f dBTP, ffmpeg %.2f LUFS %.2f dBTP, gain %.2f dB%n",
                report.integratedLufs(), report.truePeakDbtp(), ff.integratedLufs(), ff.truePeakDbtp(), report.gainAppliedDb());
        assertEquals(-14, ff.integratedLufs(), 1.0);
        assertTrue(ff.truePeakDbtp() <= -1.0, "ffmpeg true peak " + ff.truePeakDbtp());
        assertEquals(-14, report.integratedLufs(), 1.0);
        assertTrue(report.truePeakDbtp() <= -1.0);
        assertEquals(10.0, report.durationSeconds(), 1e-9);
        assertEquals("pcm_s16le,48000,2", Fixtures.ffprobe(master, "-show_entries", "stream=codec_name,sample_rate,channels",
                "-of", "csv=p=0"));
        float[][] pcm = WavFiles.readAll(master);
        assertEquals(480_000, pcm[0].length);
        assertEquals(0, fullScaleSamples(pcm), "samples at full scale");
        Fixtures.run(List.of("sox", master.toString(), "-n", "spectrogram", "-o", "/tmp/scorecast-master-spectrogram.png"));
    }

    @Test
    void remasteringLowerScalesTheSameMasterDown(@TempDir Path dir) {
        Path master = dir.resolve("master.wav");
        try (Mixer.Mixdown mix = Mixer.mixdown(stems, MixSettings.standard(), master)) {
            MasterReport first = mix.master(-2);
            float[][] before = WavFiles.readAll(master);
            MasterReport lower = mix.remasterLower(1.5);
            float[][] after = WavFiles.readAll(master);
            assertEquals(first.integratedLufs() - 1.5, lower.integratedLufs(), 0.05);
            assertEquals(first.truePeakDbtp() - 1.5, lower.truePeakDbtp(), 0.05);
            assertEquals(first.gainAppliedDb() - 1.5, lower.gainAppliedDb(), 1e-9);
            // Scaled, not limited harder: sample for sample, within the 16-bit dither.
            float g = (float) Math.pow(10, -1.5 / 20);
            double worst = 0;
            for (int i = 0; i < before[0].length; i++) {
                worst = Math.max(worst, Math.abs(before[0][i] * g - after[0][i]));
            }
            assertTrue(worst < 4.0 / 32768, "largest difference from the scaled master " + worst);
        }
    }

    @Test
    void loudTargetStillMeetsTheCeiling(@TempDir Path dir) {
        Path master = dir.resolve("loud.wav");
        MasterReport report = Mixer.master(stems, new MixSettings(Map.of(InstrumentGroup.BEATS, 6.0), Map.of(InstrumentGroup.MELODY, 0.5),
                -9, 0, Optional.empty(), 0), master);
        Fixtures.Ebur128 ff = Fixtures.ebur128(master);
        System.out.printf("loud master: ours %.2f LUFS %.2f dBTP, ffmpeg %.2f LUFS %.2f dBTP%n",
                report.integratedLufs(), report.truePeakDbtp(), ff.integratedLufs(), ff.truePeakDbtp());
        assertTrue(ff.truePeakDbtp() <= -1.0, "ffmpeg true peak " + ff.truePeakDbtp());
        assertEquals(-9, ff.integratedLufs(), 1.0);
        assertEquals(0, fullScaleSamples(WavFiles.readAll(master)));
    }

    @Test
    void originalAudioIsMixedUnderTheMusic(@TempDir Path dir) {
        // A 16-bit WAV as the extractor writes it, shorter than the music: the rest is silence.
        Path original = dir.resolve("original.wav");
        Fixtures.ffmpeg("-f", "lavfi", "-i", "anoisesrc=color=pink:amplitude=0.3:duration=6", "-ar", "48000", "-ac", "2",
                "-c:a", "pcm_s16le", original.toString());
        Path master = dir.resolve("with-original.wav");
        MasterReport report = Mixer.master(stems, new MixSettings(Map.of(), Map.of(), -14, 0, Optional.of(original), -6), master);
        assertEquals(10.0, report.durationSeconds(), 1e-9);
        Fixtures.Ebur128 ff = Fixtures.ebur128(master);
        assertEquals(-14, ff.integratedLufs(), 1.0);
        assertTrue(ff.truePeakDbtp() <= -1.0);
        // Without the music: the original alone, levelled.
        Path alone = dir.resolve("alone.wav");
        MasterReport onlyOriginal = Mixer.master(List.of(), new MixSettings(Map.of(), Map.of(), -14, 0, Optional.of(original), 0), alone);
        assertEquals(6.0, onlyOriginal.durationSeconds(), 1e-9);
        assertEquals(-14, Fixtures.ebur128(alone).integratedLufs(), 1.0);
    }

    @Test
    void settingsAreCheckedAllAtOnce() {
        InvalidParameter e = assertThrows(InvalidParameter.class, () -> new MixSettings(Map.of(InstrumentGroup.BASS, 99.0),
                Map.of(InstrumentGroup.BASS, 2.0), 5, 0, Optional.empty(), 0));
        assertEquals(3, e.problems().size());
        assertThrows(InvalidParameter.class, () -> Mixer.master(List.of(), MixSettings.standard(), Path.of("/tmp/x.wav")));
    }

    static int fullScaleSamples(float[][] pcm) {
        int n = 0;
        for (float[] ch : pcm) {
            for (float v : ch) {
                if (v >= 32767f / 32768f || v <= -1f) {
                    n++;
                }
            }
        }
        return n;
    }
}
