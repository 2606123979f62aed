package dev.scorecast.engine.render;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.io.StereoPipe;
import dev.scorecast.engine.io.WavEncoding;
import dev.scorecast.engine.io.WavFiles;
import dev.scorecast.engine.io.WavWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
        stems = new Renderer(bank).render(Fixtures.score(10, 5), dir.resolve("stems"), f -> {});
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
        System.out.printf(
                "master: ours %.2f LUFS %.2f dBTP, ffmpeg %.2f LUFS %.2f dBTP, gain %.2f dB%n",
                report.integratedLufs(),
                report.truePeakDbtp(),
                ff.integratedLufs(),
                ff.truePeakDbtp(),
                report.gainAppliedDb());
        assertEquals(-14, ff.integratedLufs(), 1.0);
        assertTrue(ff.truePeakDbtp() <= -1.0, "ffmpeg true peak " + ff.truePeakDbtp());
        assertEquals(-14, report.integratedLufs(), 1.0);
        assertTrue(report.truePeakDbtp() <= -1.0);
        assertEquals(10.0, report.durationSeconds(), 1e-9);
        assertEquals(
                "pcm_s16le,48000,2",
                Fixtures.ffprobe(master, "-show_entries", "stream=codec_name,sample_rate,channels", "-of", "csv=p=0"));
        float[][] pcm = WavFiles.readAll(master);
        assertEquals(480_000, pcm[0].length);
        assertEquals(0, fullScaleSamples(pcm), "samples at full scale");
        Fixtures.run(
                List.of("sox", master.toString(), "-n", "spectrogram", "-o", "/tmp/scorecast-master-spectrogram.png"));
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
    void theMixdownTellsItsProgressBlockByBlock(@TempDir Path dir) {
        List<Double> told = new ArrayList<>();
        try (Mixer.Mixdown mix = Mixer.mixdown(stems, MixSettings.standard(), dir.resolve("master.wav"), told::add)) {
            assertTrue(told.size() > 100, told.size() + " reports for 10 s in 4096-frame blocks, two passes");
            for (int i = 1; i < told.size(); i++) {
                assertTrue(told.get(i) >= told.get(i - 1), "progress went back at " + i);
            }
            assertEquals(1.0, told.getLast(), 1e-9);
            assertTrue(told.getFirst() < 0.05);
        }
    }

    @Test
    void theTapsGetTheMasterAsTheFileHoldsIt(@TempDir Path dir) throws Exception {
        Path master = dir.resolve("master.wav");
        try (Mixer.Mixdown mix = Mixer.mixdown(stems, MixSettings.standard(), master)) {
            StereoPipe tap = new StereoPipe(Mixer.RATE, mix.frames(), 4);
            var read = CompletableFuture.supplyAsync(() -> {
                float[][] all = new float[2][(int) tap.frames()];
                tap.readStereo(all, all[0].length);
                return all;
            });
            mix.master(-2, List.of(tap));
            float[][] file = WavFiles.readAll(master);
            float[][] tapped = read.get(30, TimeUnit.SECONDS);
            assertArrayEquals(file[0], tapped[0]);
            assertArrayEquals(file[1], tapped[1]);
        }
    }

    @Test
    void aMasterPassThatRunsAgainAbandonsItsTaps(@TempDir Path dir) {
        // A 12 kHz tone sampled 45 degrees off its peaks: every sample 3 dB under the true peak,
        // which the forecast (sample peaks) cannot see and the limiter (true peaks) takes off.
        Path wav = dir.resolve("tone.wav");
        float[][] tone = new float[2][5 * Mixer.RATE];
        for (int i = 0; i < tone[0].length; i++) {
            tone[0][i] = tone[1][i] = (float) (0.5 * Math.sin(Math.PI / 2 * i + Math.PI / 4));
        }
        try (WavWriter w = WavWriter.create(wav, WavEncoding.FLOAT32, Mixer.RATE, 2)) {
            w.write(tone, tone[0].length);
            w.commit();
        }
        Path master = dir.resolve("master.wav");
        try (Mixer.Mixdown mix = Mixer.mixdown(
                List.of(new Stem(InstrumentGroup.MELODY, wav, -6)),
                new MixSettings(Map.of(), Map.of(), -8, 0, Optional.empty(), 0),
                master)) {
            StereoPipe tap = new StereoPipe(Mixer.RATE, mix.frames(), 1000);
            // At -8 LUFS the tone's true peaks are near -11 dBTP, so a -14 dBTP ceiling takes about 3 dB
            // off all of it; the forecast sees sample peaks near -14 and expects next to nothing.
            MasterReport report = mix.master(-14, List.of(tap));
            assertThrows(StereoPipe.Abandoned.class, () -> tap.readStereo(new float[2][1 << 20], 1 << 20));
            // The passes after it do what they can: the tone held at the ceiling, as loud as that lets it be.
            assertEquals(-14, report.truePeakDbtp(), 0.2);
            assertEquals(-14 + 3.3, report.integratedLufs(), 0.2);
        }
    }

    @Test
    void loudTargetStillMeetsTheCeiling(@TempDir Path dir) {
        Path master = dir.resolve("loud.wav");
        MasterReport report = Mixer.master(
                stems,
                new MixSettings(
                        Map.of(InstrumentGroup.BEATS, 6.0),
                        Map.of(InstrumentGroup.MELODY, 0.5),
                        -9,
                        0,
                        Optional.empty(),
                        0),
                master);
        Fixtures.Ebur128 ff = Fixtures.ebur128(master);
        System.out.printf(
                "loud master: ours %.2f LUFS %.2f dBTP, ffmpeg %.2f LUFS %.2f dBTP%n",
                report.integratedLufs(), report.truePeakDbtp(), ff.integratedLufs(), ff.truePeakDbtp());
        assertTrue(ff.truePeakDbtp() <= -1.0, "ffmpeg true peak " + ff.truePeakDbtp());
        assertEquals(-9, ff.integratedLufs(), 1.0);
        assertEquals(0, fullScaleSamples(WavFiles.readAll(master)));
    }

    @Test
    void originalAudioIsMixedUnderTheMusic(@TempDir Path dir) {
        // A 16-bit WAV as the extractor writes it, shorter than the music: the rest is silence.
        Path original = dir.resolve("original.wav");
        Fixtures.ffmpeg(
                "-f",
                "lavfi",
                "-i",
                "anoisesrc=color=pink:amplitude=0.3:duration=6",
                "-ar",
                "48000",
                "-ac",
                "2",
                "-c:a",
                "pcm_s16le",
                original.toString());
        Path master = dir.resolve("with-original.wav");
        MasterReport report =
                Mixer.master(stems, new MixSettings(Map.of(), Map.of(), -14, 0, Optional.of(original), -6), master);
        assertEquals(10.0, report.durationSeconds(), 1e-9);
        Fixtures.Ebur128 ff = Fixtures.ebur128(master);
        assertEquals(-14, ff.integratedLufs(), 1.0);
        assertTrue(ff.truePeakDbtp() <= -1.0);
        // Without the music: the original alone, levelled.
        Path alone = dir.resolve("alone.wav");
        MasterReport onlyOriginal =
                Mixer.master(List.of(), new MixSettings(Map.of(), Map.of(), -14, 0, Optional.of(original), 0), alone);
        assertEquals(6.0, onlyOriginal.durationSeconds(), 1e-9);
        assertEquals(-14, Fixtures.ebur128(alone).integratedLufs(), 1.0);
    }

    @Test
    void settingsAreCheckedAllAtOnce() {
        InvalidParameter e = assertThrows(
                InvalidParameter.class,
                () -> new MixSettings(
                        Map.of(InstrumentGroup.BASS, 99.0),
                        Map.of(InstrumentGroup.BASS, 2.0),
                        5,
                        0,
                        Optional.empty(),
                        0));
        assertEquals(3, e.problems().size());
        assertThrows(
                InvalidParameter.class, () -> Mixer.master(List.of(), MixSettings.standard(), Path.of("/tmp/x.wav")));
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
