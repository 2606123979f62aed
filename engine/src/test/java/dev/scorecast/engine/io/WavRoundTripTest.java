package dev.scorecast.engine.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.error.UnsupportedMedia;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What WavWriter writes, WavReader reads back; what neither takes is refused with the caller's field. */
class WavRoundTripTest {
    @TempDir
    Path dir;

    private static float[][] ramp(int channels, int n) {
        float[][] x = new float[channels][n];
        for (int c = 0; c < channels; c++) {
            for (int i = 0; i < n; i++) {
                x[c][i] = (float) Math.sin(0.01 * i + c) * 0.9f;
            }
        }
        return x;
    }

    @Test
    void floatComesBackExactlyAndFfprobeAgreesOnTheHeader() throws IOException {
        float[][] x = ramp(2, 100_000); // several staging buffers
        Path wav = dir.resolve("f.wav");
        try (WavWriter w = WavWriter.create(wav, WavEncoding.FLOAT32, 48_000, 2)) {
            w.write(x, 70_000);
            float[][] rest = {Arrays.copyOfRange(x[0], 70_000, 100_000), Arrays.copyOfRange(x[1], 70_000, 100_000)};
            w.write(rest, 30_000);
            assertEquals(100_000, w.frames());
            w.commit();
        }
        assertEquals(58 + 100_000 * 8, Files.size(wav));
        try (WavReader in = WavReader.open(wav, "f", "the test")) {
            assertEquals(48_000, in.rateHz());
            assertEquals(2, in.channels());
            assertEquals(100_000, in.frames());
            float[][] back = new float[2][100_000];
            assertEquals(100_000, in.read(back, 100_000));
            assertEquals(0, in.read(back, 10));
            assertArrayEquals(x[0], back[0]);
            assertArrayEquals(x[1], back[1]);
        }
    }

    @Test
    void pcm16IsDitheredWithinThreeStepsAndMonoReadsAsBothSides() {
        float[][] x = ramp(1, 5_000);
        Path wav = dir.resolve("m.wav");
        try (WavWriter w = WavWriter.create(wav, WavEncoding.PCM16, 22_050, 1)) {
            w.write(x, 5_000);
            w.commit();
            assertEquals(0, w.clippedSamples());
        }
        float[][] back = new float[2][6_000];
        try (WavReader in = WavReader.openPcm16(wav, "m", "the test")) {
            in.readStereo(back, 6_000);
        }
        for (int i = 0; i < 5_000; i++) {
            assertEquals(x[0][i], back[0][i], 3.0 / 32768, "sample " + i);
            assertEquals(back[0][i], back[1][i]);
        }
        for (int i = 5_000; i < 6_000; i++) {
            assertEquals(0f, back[0][i]);
            assertEquals(0f, back[1][i]);
        }
    }

    @Test
    void bytesAndSilenceGoInAsTheyAre() {
        Path wav = dir.resolve("b.wav");
        ByteBuffer pcm = ByteBuffer.allocate(8)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putShort((short) 16384)
                .putShort((short) -16384)
                .putShort((short) 1)
                .putShort((short) -1)
                .flip();
        try (WavWriter w = WavWriter.create(wav, WavEncoding.PCM16, 48_000, 2)) {
            w.write(pcm);
            w.writeSilence(3);
            assertEquals(5, w.frames());
            w.commit();
        }
        float[][] back = new float[2][5];
        try (WavReader in = WavReader.open(wav, "b", "the test")) {
            assertEquals(5, in.read(back, 8));
        }
        assertArrayEquals(new float[] {0.5f, 1 / 32768f, 0, 0, 0}, back[0]);
        assertArrayEquals(new float[] {-0.5f, -1 / 32768f, 0, 0, 0}, back[1]);
    }

    @Test
    void aStreamHeaderHasEverySizeUnknown() {
        ByteBuffer h = ByteBuffer.wrap(WavWriter.streamHeader(WavEncoding.PCM16, 48_000, 2))
                .order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(44, h.capacity());
        assertEquals(-1, h.getInt(4));
        assertEquals(-1, h.getInt(40));
        assertEquals(48_000 * 4, h.getInt(28));
    }

    @Test
    void whatNoReaderTakesIsUnsupportedMediaOnTheCallersField() throws IOException {
        Path text = Files.writeString(dir.resolve("notes.wav"), "hello");
        UnsupportedMedia e = assertThrows(UnsupportedMedia.class, () -> WavReader.open(text, "voiceover", "the mixer"));
        assertEquals("voiceover", e.field());
        assertTrue(e.getMessage().contains("not a RIFF/WAVE file"), e.getMessage());

        Path floats = written("f.wav", WavEncoding.FLOAT32, 2);
        e = assertThrows(UnsupportedMedia.class, () -> WavReader.openPcm16(floats, "wav", "this analysis"));
        assertTrue(e.getMessage().contains("need 16-bit PCM; found format 3, 32 bits"), e.getMessage());

        Path three = written("3.wav", WavEncoding.PCM16, 3);
        e = assertThrows(UnsupportedMedia.class, () -> WavReader.open(three, "sync", "the sync check"));
        assertTrue(
                e.getMessage()
                        .contains(
                                "need 16-bit PCM or 32-bit float, mono or stereo; found format 1, 16 bits, 3 channels"),
                e.getMessage());
    }

    /** Ten frames of {@code channels} channels in {@code encoding}. */
    private Path written(String name, WavEncoding encoding, int channels) {
        Path wav = dir.resolve(name);
        try (WavWriter w = WavWriter.create(wav, encoding, 48_000, channels)) {
            w.write(ramp(channels, 10), 10);
            w.commit();
        }
        return wav;
    }
}
