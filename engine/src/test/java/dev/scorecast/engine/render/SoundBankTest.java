package dev.scorecast.engine.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.UnsupportedMedia;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
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
        Files.write(wav, "RIFF\0\0\0\0WAVEfmt ".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals("SCORECAST_SOUNDFONT", assertThrows(UnsupportedMedia.class, () -> SoundBank.load(wav)).field());
        assertEquals("SCORECAST_SOUNDFONT",
                assertThrows(InvalidParameter.class, () -> SoundBank.load(dir.resolve("missing.sf2"))).field());
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
