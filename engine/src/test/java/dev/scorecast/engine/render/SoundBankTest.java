package dev.scorecast.engine.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.media.sound.ModelPatch;
import com.sun.media.sound.SF2Soundbank;
import com.sun.media.sound.SoftSynthesizer;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.UnsupportedMedia;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.IntStream;
import javax.sound.midi.Instrument;
import javax.sound.midi.ShortMessage;
import javax.sound.sampled.AudioFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SoundBankTest {

    @Test
    void loadsOnlyTheInstrumentsAskedFor() {
        try (SoundBank bank = SoundBank.load(Fixtures.TIM)) {
            assertEquals(2, SoundBank.soundFontVersion(Fixtures.TIM));
            SoundBank.Resolved piano = bank.instrument(0, false);
            assertEquals(0, piano.program());
            assertNotNull(piano.instrument());
            assertEquals(piano.instrument(), bank.instrument(0, false).instrument(), "cached and shared");
            assertEquals(0, bank.instrument(0, true).program());
            // A kit the bank lacks falls back to the standard kit.
            assertEquals(0, bank.instrument(127, true).program());
        }
    }

    @Test
    void floatSamplesPlayExactlyAsGervillsOwn() throws Exception {
        // A looped piano note held past its loop point and released, then a snare: the float copy
        // must give the very samples Gervill's SF2 instrument gives from the 16-bit bytes.
        try (SoundBank bank = SoundBank.load(Fixtures.TIM)) {
            var own = new SF2Soundbank(Fixtures.TIM.toFile());
            byte[] viaFloats = play(
                    bank.instrument(0, false).instrument(),
                    bank.instrument(0, true).instrument(),
                    null);
            byte[] viaBytes = play(
                    (Instrument) own.getInstrument(new ModelPatch(0, 0, false)),
                    (Instrument) own.getInstrument(new ModelPatch(0, 0, true)),
                    null);
            assertTrue(IntStream.range(0, viaBytes.length).anyMatch(i -> viaBytes[i] != 0), "the notes sound");
            assertTrue(Arrays.equals(viaBytes, viaFloats), "float samples change the audio");
            // Instruments prepared once and shared by synthesizers play the same, in one synthesizer after another.
            assertTrue(
                    SoundBank.sharesPreparedInstruments(),
                    "the tests run with Gervill's table open, as the server does");
            for (int run = 0; run < 2; run++) {
                assertTrue(
                        Arrays.equals(viaBytes, play(null, null, bank)),
                        "shared prepared instruments change the audio");
            }
        }
    }

    /** Plays the notes with {@code piano} and {@code kit} loaded by Gervill, or with program 0 and kit 0 of {@code shared}. */
    private static byte[] play(Instrument piano, Instrument kit, SoundBank shared) throws Exception {
        var synth = new SoftSynthesizer();
        var format = new AudioFormat(AudioFormat.Encoding.PCM_FLOAT, 48_000, 32, 2, 8, 48_000, false);
        try (var stream = synth.openStream(format, Map.of("load default soundbank", false))) {
            if (shared == null) {
                synth.loadInstrument(piano);
                synth.loadInstrument(kit);
            } else {
                shared.loadInto(synth, shared.live(0, false));
                shared.loadInto(synth, shared.live(0, true));
            }
            var receiver = synth.getReceiver();
            receiver.send(new ShortMessage(ShortMessage.NOTE_ON, 0, 45, 100), 0);
            receiver.send(new ShortMessage(ShortMessage.NOTE_OFF, 0, 45, 0), 2_500_000);
            receiver.send(new ShortMessage(ShortMessage.NOTE_ON, 9, 38, 110), 1_000_000);
            return stream.readNBytes(48_000 * 8 * 4);
        } finally {
            synth.close();
        }
    }

    @Test
    void refusesAnSf3Bank(@TempDir Path dir) throws IOException {
        Path sf3 = dir.resolve("bank.sf3");
        Files.write(sf3, riffSfbk(3));
        UnsupportedMedia e = assertThrows(UnsupportedMedia.class, () -> SoundBank.load(sf3));
        assertEquals("SCORECAST_SOUNDFONT", e.field());
        assertTrue(e.getMessage().contains("SF3"), e.getMessage());
    }

    @Test
    void refusesWhatIsNotASoundFont(@TempDir Path dir) throws IOException {
        Path wav = dir.resolve("not.sf2");
        Files.write(wav, "RIFF\0\0\0\0WAVEfmt ".getBytes(StandardCharsets.US_ASCII));
        assertEquals(
                "SCORECAST_SOUNDFONT",
                assertThrows(UnsupportedMedia.class, () -> SoundBank.load(wav)).field());
        assertEquals(
                "SCORECAST_SOUNDFONT",
                assertThrows(InvalidParameter.class, () -> SoundBank.load(dir.resolve("missing.sf2")))
                        .field());
    }

    /** A RIFF sfbk header with only an INFO list holding ifil = major.1. */
    static byte[] riffSfbk(int major) {
        ByteBuffer b = ByteBuffer.allocate(36).order(ByteOrder.LITTLE_ENDIAN);
        b.put("RIFF".getBytes()).putInt(28).put("sfbk".getBytes());
        b.put("LIST".getBytes()).putInt(16).put("INFO".getBytes());
        b.put("ifil".getBytes()).putInt(4).putShort((short) major).putShort((short) 1);
        return b.array();
    }
}
