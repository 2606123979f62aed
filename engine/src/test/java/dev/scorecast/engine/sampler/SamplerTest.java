package dev.scorecast.engine.sampler;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sampler's SFZ subset on synthetic samples (sines and noise written as WAVs, decoded through
 * the store like any source): round robins, velocity layers and crossfades, release triggers, the
 * sustain pedal, choke groups, loops, the envelope, legato, and the block contract.
 */
class SamplerTest {
    private static final int RATE = Sampler.RATE;

    @TempDir
    static Path dir;

    private static SampleStore store;

    @BeforeAll
    static void samples() throws IOException {
        store = new SampleStore(dir.resolve("cache"));
        wav(dir.resolve("sine440.wav"), 1, RATE * 2, (i) -> (float) (0.5 * Math.sin(2 * Math.PI * 440 * i / RATE)));
        wav(dir.resolve("sine660.wav"), 1, RATE * 2, (i) -> (float) (0.5 * Math.sin(2 * Math.PI * 660 * i / RATE)));
        wav(dir.resolve("click.wav"), 1, RATE / 2, (i) -> i < 480 ? 0.8f * (float) Math.sin(i * 0.3) : 0f);
        wav(dir.resolve("ring.wav"), 1, RATE * 2, (i) -> (float) (0.5 * Math.sin(2 * Math.PI * 3000 * i / RATE)));
        Random noise = new Random(3);
        wav(dir.resolve("noise.wav"), 2, RATE, (i) -> (float) (0.3 * noise.nextGaussian()));
    }

    interface Signal {
        float at(int i);
    }

    /** A 48 kHz 16-bit WAV, the same signal on every channel except noise, which draws per sample. */
    static void wav(Path file, int channels, int frames, Signal s) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(44 + frames * channels * 2).order(ByteOrder.LITTLE_ENDIAN);
        b.put("RIFF".getBytes()).putInt(36 + frames * channels * 2).put("WAVE".getBytes());
        b.put("fmt ".getBytes())
                .putInt(16)
                .putShort((short) 1)
                .putShort((short) channels)
                .putInt(RATE)
                .putInt(RATE * channels * 2)
                .putShort((short) (channels * 2))
                .putShort((short) 16);
        b.put("data".getBytes()).putInt(frames * channels * 2);
        for (int i = 0; i < frames; i++) {
            for (int c = 0; c < channels; c++) {
                b.putShort((short) Math.round(Math.max(-1, Math.min(1, s.at(i))) * 32767));
            }
        }
        Files.write(file, b.array());
    }

    static SampledInstrument sfz(String text) {
        return SampledInstrument.parse("test", text, dir, store);
    }

    /** {@code seconds} of {@code s} after {@code events} queued it, in blocks of {@code block}. */
    static float[][] render(Sampler s, double seconds, int block, Consumer<Sampler> events) {
        events.accept(s);
        int frames = (int) Math.round(seconds * RATE);
        float[][] out = new float[2][frames];
        float[][] buf = new float[2][block];
        for (int pos = 0; pos < frames; pos += block) {
            int n = Math.min(block, frames - pos);
            Arrays.fill(buf[0], 0f);
            Arrays.fill(buf[1], 0f);
            s.process(buf, 0, n);
            System.arraycopy(buf[0], 0, out[0], pos, n);
            System.arraycopy(buf[1], 0, out[1], pos, n);
        }
        return out;
    }

    static double rms(float[] x, int from, int to) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += x[i] * x[i];
        }
        return Math.sqrt(sum / Math.max(1, to - from));
    }

    static float[] slice(float[] x, int from, int len) {
        return Arrays.copyOfRange(x, from, from + len);
    }

    @Test
    void roundRobinsAlternateTakesPerKey() {
        SampledInstrument ins = sfz("<group> key=60 pitch_keycenter=60 seq_length=2 ampeg_release=0.01\n"
                + "<region> seq_position=1 sample=sine440.wav\n<region> seq_position=2 sample=sine660.wav\n");
        Sampler s = new Sampler(8, true, 1);
        float[][] out = render(s, 1.6, 4096, x -> {
            x.program(0, ins);
            for (int hit = 0; hit < 4; hit++) {
                x.noteOn(0, 60, 100, hit * 19_200L);
                x.noteOff(0, 60, hit * 19_200L + 9_600);
            }
        });
        float[] first = slice(out[0], 100, 4000);
        float[] second = slice(out[0], 19_300, 4000);
        float[] third = slice(out[0], 38_500, 4000);
        assertTrue(diff(first, second) > 0.1, "two hits in a row played the same take");
        assertArrayEquals(first, third, 1e-6f, "the take after next is the first again");
    }

    @Test
    void aNoteWithItsTakePlaysThatTakeWhateverCameBefore() {
        // A re-cut's kept music (conform) plays the source score's notes after other music: the score's
        // take, not the sampler's count of earlier strikes, says which round robin a note plays.
        SampledInstrument ins = sfz("<group> key=60 pitch_keycenter=60 seq_length=2 ampeg_release=0.01\n"
                + "<region> seq_position=1 sample=sine440.wav\n<region> seq_position=2 sample=sine660.wav\n");
        float[] alone = heard(ins, x -> x.noteOn(0, 60, 100, 5, 4_800L));
        float[] afterOthers = heard(ins, x -> {
            x.noteOn(0, 60, 100, 0, 0L);
            x.noteOff(0, 60, 2_400L);
            x.noteOn(0, 60, 100, 5, 4_800L);
        });
        float[] otherTake = heard(ins, x -> x.noteOn(0, 60, 100, 4, 4_800L));
        assertArrayEquals(alone, afterOthers, 1e-6f);
        assertTrue(diff(alone, otherTake) > 0.1, "takes 5 and 4 sounded alike");
    }

    /** The left channel from 8,000 to 16,000 frames of {@code notes} played on channel 0 set to {@code ins}. */
    private static float[] heard(SampledInstrument ins, Consumer<Sampler> notes) {
        float[][] out = render(new Sampler(8, true, 1), 0.5, 4096, x -> {
            x.program(0, ins);
            notes.accept(x);
        });
        return slice(out[0], 8_000, 8_000);
    }

    @Test
    void randomRoundRobinsAreRepeatableBySeed() {
        SampledInstrument ins =
                sfz("<group> key=60 pitch_keycenter=60\n<region> lorand=0 hirand=0.5 sample=sine440.wav\n"
                        + "<region> lorand=0.5 hirand=1 sample=sine660.wav\n");
        Consumer<Sampler> hits = x -> {
            x.program(0, ins);
            for (int hit = 0; hit < 8; hit++) {
                x.noteOn(0, 60, 100, hit * 4800L);
            }
        };
        float[][] a = render(new Sampler(16, true, 7), 1, 4096, hits);
        float[][] b = render(new Sampler(16, true, 7), 1, 4096, hits);
        assertArrayEquals(a[0], b[0]);
    }

    @Test
    void velocityPicksLayersAndCrossfadesBetweenThem() {
        SampledInstrument ins = sfz("<group> key=60 pitch_keycenter=60\n"
                + "<region> lovel=1 hivel=70 xfout_lovel=50 xfout_hivel=70 sample=sine440.wav\n"
                + "<region> lovel=50 hivel=127 xfin_lovel=50 xfin_hivel=70 sample=sine660.wav\n");
        assertEquals(1, voicesAfter(ins, 30));
        assertEquals(2, voicesAfter(ins, 60));
        assertEquals(1, voicesAfter(ins, 100));
        // Equal power: at the middle of the fade each layer is at -3 dB of what it plays alone at that velocity.
        SampledInstrument alone = sfz("<region> key=60 pitch_keycenter=60 sample=sine440.wav\n");
        float[][] mid = render(new Sampler(8, true, 0), 0.2, 4096, x -> {
            x.program(0, ins);
            x.noteOn(0, 60, 60, 0);
        });
        float[][] full = render(new Sampler(8, true, 0), 0.2, 4096, x -> {
            x.program(0, alone);
            x.noteOn(0, 60, 60, 0);
        });
        assertEquals(Math.sqrt(0.5), tone(mid[0], 440, 0, 9600) / tone(full[0], 440, 0, 9600), 0.01);
        assertTrue(
                tone(mid[0], 660, 0, 9600) > 0.5 * tone(mid[0], 440, 0, 9600),
                "the upper layer is not in the crossfade");
    }

    private static int voicesAfter(SampledInstrument ins, int velocity) {
        Sampler s = new Sampler(8, true, 0);
        render(s, 0.01, 480, x -> {
            x.program(0, ins);
            x.noteOn(0, 60, velocity, 0);
        });
        return s.active();
    }

    @Test
    void releaseSamplesPlayWhenTheKeyIsLetGoAndTheSustainPedalHoldsNotes() {
        SampledInstrument ins = sfz("<region> key=60 pitch_keycenter=60 ampeg_release=0.05 sample=sine440.wav\n"
                + "<region> key=60 pitch_keycenter=60 trigger=release sample=ring.wav\n");
        // Key up at 0.3 s: the sine stops within its release, the release sample rings after.
        float[][] plain = render(new Sampler(8, true, 0), 1, 4096, x -> {
            x.program(0, ins);
            x.noteOn(0, 60, 100, 0);
            x.noteOff(0, 60, 14_400);
        });
        assertTrue(rms(plain[0], 0, 14_000) > 0.05);
        assertTrue(
                tone(plain[0], 3000, 24_000, 28_800) > 10 * tone(plain[0], 440, 24_000, 28_800),
                "no release sample after the key-off");
        assertTrue(tone(plain[0], 3000, 4_800, 9_600) < 1e-3, "the release sample sounded before the key-off");
        // Pedal down before the key-off, up at 0.8 s: the note rings to 0.8 s, and only then its release.
        float[][] pedal = render(new Sampler(8, true, 0), 1.2, 4096, x -> {
            x.program(0, ins);
            x.control(0, 64, 127, 0);
            x.noteOn(0, 60, 100, 0);
            x.noteOff(0, 60, 14_400);
            x.control(0, 64, 0, 38_400);
        });
        assertTrue(tone(pedal[0], 440, 33_600, 38_000) > 0.05, "the pedal did not hold the note");
        assertTrue(
                tone(pedal[0], 3000, 24_000, 28_800) < 1e-3, "the release sample played while the pedal held the note");
        assertTrue(tone(pedal[0], 3000, 40_000, 44_000) > 0.01, "no release sample when the pedal lifted");
        assertTrue(
                tone(pedal[0], 440, 48_000, 52_000) < tone(pedal[0], 440, 33_600, 38_000) / 10,
                "the note rang on after the pedal lifted");
    }

    @Test
    void aChokeGroupStopsTheOpenHat() {
        SampledInstrument ins = sfz("<group> group=1 off_by=1 off_time=0.005\n"
                + "<region> key=46 pitch_keycenter=46 loop_mode=one_shot sample=noise.wav\n"
                + "<region> key=42 pitch_keycenter=42 loop_mode=one_shot sample=click.wav\n");
        float[][] choked = render(new Sampler(8, true, 0), 0.6, 4096, x -> {
            x.program(0, ins);
            x.noteOn(0, 46, 127, 0);
            x.noteOn(0, 42, 127, 9600);
        });
        float[][] open = render(new Sampler(8, true, 0), 0.6, 4096, x -> {
            x.program(0, ins);
            x.noteOn(0, 46, 127, 0);
        });
        assertTrue(rms(open[0], 12_000, 20_000) > 0.05);
        assertTrue(rms(choked[0], 12_000, 20_000) < 1e-3, "the closed hat did not choke the open one");
    }

    @Test
    void oneShotsIgnoreTheKeyOffAndLoopsHoldWhileTheKeyIsDown() {
        SampledInstrument oneShot = sfz("<region> key=60 pitch_keycenter=60 loop_mode=one_shot sample=sine440.wav\n");
        float[][] a = render(new Sampler(8, true, 0), 1.5, 4096, x -> {
            x.program(0, oneShot);
            x.noteOn(0, 60, 127, 0);
            x.noteOff(0, 60, 480);
        });
        assertTrue(rms(a[0], 48_000, 60_000) > 0.2, "a one-shot stopped at its key-off");
        // A 2 s sine looped over its second half plays on for 3 s while the key is held.
        SampledInstrument looped =
                sfz("<region> key=60 pitch_keycenter=60 loop_mode=loop_sustain loop_start=48000 loop_end=95999"
                        + " ampeg_attack=0.1 ampeg_release=0.2 sample=sine440.wav\n");
        float[][] b = render(new Sampler(8, true, 0), 4, 4096, x -> {
            x.program(0, looped);
            x.noteOn(0, 60, 127, 0);
            x.noteOff(0, 60, 144_000);
        });
        assertTrue(rms(b[0], 0, 480) < rms(b[0], 9_600, 14_400) / 4, "no attack ramp");
        assertTrue(rms(b[0], 130_000, 140_000) > 0.1, "the loop did not hold the note past the sample's end");
        assertTrue(rms(b[0], 170_000, 180_000) < 1e-3, "the release did not end the loop");
    }

    @Test
    void aLegatoChannelGlidesIntoTheNextNoteWithoutANewAttack() {
        SampledInstrument ins = sfz("<region> lokey=40 hikey=90 pitch_keycenter=69 ampeg_attack=0.08 ampeg_release=0.1"
                + " loop_mode=loop_continuous loop_start=0 loop_end=95999 sample=sine440.wav\n");
        Consumer<Sampler> phrase = x -> {
            x.program(0, ins);
            x.noteOn(0, 69, 110, 0);
            x.noteOn(0, 72, 110, 24_000); // struck while 69 is still held: an overlap, as a legato player writes it
            x.noteOff(0, 69, 26_400);
            x.noteOff(0, 72, 48_000);
        };
        Sampler legato = new Sampler(8, true, 0);
        legato.legato(0, 0.06);
        float[][] l = render(legato, 1.2, 480, phrase);
        float[][] plain = render(new Sampler(8, true, 0), 1.2, 480, phrase);
        double before = rms(l[0], 19_200, 24_000);
        // With legato the level never dips and does not restart from silence; the new note is a fresh attack without
        // it.
        for (int w = 24_000; w < 33_600; w += 480) {
            assertTrue(rms(l[0], w, w + 480) > 0.8 * before, "legato dipped at frame " + w);
        }
        // The pitch glides: after the glide only the new note's frequency sounds, and one voice.
        assertTrue(tone(l[0], 523.25, 33_600, 38_400) > 5 * tone(l[0], 440, 33_600, 38_400));
        assertTrue(tone(l[0], 440, 33_600, 38_400)
                < 0.15 * before); // the window leaks 523 Hz into the 440 Hz bin by about 6 %
        // Gervill's, and the plain channel's, way: the new note starts from silence (an attack ramp) under the old one.
        double plainEarly = tone(plain[0], 523.25, 24_000, 24_480);
        double plainLater = tone(plain[0], 523.25, 27_840, 28_320);
        assertTrue(
                plainEarly < plainLater / 4,
                "the plain channel did not re-attack (" + plainEarly + " vs " + plainLater + ")");
    }

    @Test
    void theOutputDoesNotDependOnTheBlockSize() {
        SampledInstrument ins = sfz("<group> key=60 pitch_keycenter=60 seq_length=2 ampeg_release=0.2\n"
                + "<region> seq_position=1 sample=sine440.wav\n<region> seq_position=2 sample=noise.wav\n");
        Consumer<Sampler> events = x -> {
            x.program(0, ins);
            x.control(0, 7, 90, 0);
            for (int hit = 0; hit < 6; hit++) {
                x.noteOn(0, 60 + hit % 2, 40 + hit * 15, hit * 7_001L);
                x.noteOff(0, 60 + hit % 2, hit * 7_001L + 3_333);
            }
            x.control(0, 7, 40, 20_000);
        };
        float[][] big = render(new Sampler(8, true, 0), 1, 48_000, events);
        float[][] small = render(new Sampler(8, true, 0), 1, 317, events);
        assertArrayEquals(big[0], small[0]);
        assertArrayEquals(big[1], small[1]);
    }

    /** The amplitude of the {@code hz} component between two frames (a single-bin DFT). */
    static double tone(float[] x, double hz, int from, int to) {
        double re = 0;
        double im = 0;
        for (int i = from; i < to; i++) {
            double w = 2 * Math.PI * hz * i / RATE;
            re += x[i] * Math.cos(w);
            im += x[i] * Math.sin(w);
        }
        return 2 * Math.hypot(re, im) / (to - from);
    }

    static double diff(float[] a, float[] b) {
        double d = 0;
        for (int i = 0; i < a.length; i++) {
            d = Math.max(d, Math.abs(a[i] - b[i]));
        }
        return d;
    }
}
