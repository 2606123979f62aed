package dev.scorecast.engine.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.io.WavFiles;
import dev.scorecast.engine.media.Mp3Encoder;
import dev.scorecast.engine.media.Muxer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The master leaving the engine: muxed under the untouched video, and as MP3. */
class MediaOutputTest {

    static Path master;

    @BeforeAll
    static void master(@TempDir Path dir) {
        try (SoundBank bank = SoundBank.load(Fixtures.TIM)) {
            List<Stem> stems = new Renderer(bank).render(Fixtures.score(10, 4), dir.resolve("stems"), f -> {});
            master = dir.resolve("master.wav");
            Mixer.master(stems, MixSettings.standard(), master);
        }
    }

    @Test
    void muxCopiesTheVideoBitForBitAndAddsAac(@TempDir Path dir) {
        // H.264 with B-frames and its own AAC track, which must not survive.
        Path video = dir.resolve("in.mp4");
        Fixtures.ffmpeg(
                "-f",
                "lavfi",
                "-i",
                "testsrc2=size=320x240:rate=30",
                "-f",
                "lavfi",
                "-i",
                "sine=f=440:sample_rate=44100",
                "-t",
                "10",
                "-c:v",
                "libx264",
                "-preset",
                "veryfast",
                "-pix_fmt",
                "yuv420p",
                "-c:a",
                "aac",
                video.toString());
        Path out = dir.resolve("out.mp4");
        Muxer.mux(video, master, out);
        assertEquals(videoMd5(video), videoMd5(out));
        assertEquals(
                "aac,LC,48000,2",
                Fixtures.ffprobe(
                        out,
                        "-select_streams",
                        "a",
                        "-show_entries",
                        "stream=codec_name,profile,sample_rate,channels",
                        "-of",
                        "csv=p=0"));
        assertEquals("video\naudio", Fixtures.ffprobe(out, "-show_entries", "stream=codec_type", "-of", "csv=p=0"));
        double audioSeconds = Double.parseDouble(
                Fixtures.ffprobe(out, "-select_streams", "a", "-show_entries", "stream=duration", "-of", "csv=p=0"));
        assertEquals(10.0, audioSeconds, 0.03);
        long bitRate = Long.parseLong(
                Fixtures.ffprobe(out, "-select_streams", "a", "-show_entries", "stream=bit_rate", "-of", "csv=p=0"));
        assertTrue(bitRate > 220_000 && bitRate < 290_000, "audio bit rate " + bitRate + ", 256 kb/s asked");
        // faststart: the index (moov) comes before the media data (mdat).
        String head = new String(firstBytes(out, 64 * 1024), StandardCharsets.ISO_8859_1);
        assertTrue(head.indexOf("moov") >= 0 && head.indexOf("moov") < head.indexOf("mdat"), "moov before mdat");
        assertFalse(Files.exists(dir.resolve(".out.mp4.part")));
    }

    @Test
    void muxKeepsTheRotation(@TempDir Path dir) {
        // Debian's ffmpeg 5.1 turns the "rotate" tag into a display matrix only when stream-copying.
        Path upright = dir.resolve("upright.mp4");
        Fixtures.ffmpeg(
                "-f",
                "lavfi",
                "-i",
                "testsrc2=size=320x240:rate=25",
                "-t",
                "3",
                "-c:v",
                "libx264",
                "-preset",
                "veryfast",
                "-pix_fmt",
                "yuv420p",
                upright.toString());
        Path video = dir.resolve("turned.mp4");
        Fixtures.ffmpeg("-i", upright.toString(), "-c", "copy", "-metadata:s:v:0", "rotate=90", video.toString());
        String rotation = Fixtures.ffprobe(
                video, "-select_streams", "v", "-show_entries", "stream_side_data=rotation", "-of", "csv=p=0");
        Path out = dir.resolve("turned-out.mp4");
        Muxer.mux(video, master, out);
        assertFalse(rotation.isBlank(), "the fixture has a rotation");
        assertEquals(
                rotation,
                Fixtures.ffprobe(
                        out, "-select_streams", "v", "-show_entries", "stream_side_data=rotation", "-of", "csv=p=0"));
        assertEquals(videoMd5(video), videoMd5(out));
    }

    @Test
    void mp3DecodesToTheMastersExactLengthAndLoudness(@TempDir Path dir) {
        Path mp3 = dir.resolve("master.mp3");
        Mp3Encoder.encode(master, mp3);
        assertEquals(
                "mp3,48000,2,256000",
                Fixtures.ffprobe(
                        mp3, "-show_entries", "stream=codec_name,sample_rate,channels,bit_rate", "-of", "csv=p=0"));
        Fixtures.ffmpeg("-v", "error", "-xerror", "-i", mp3.toString(), "-f", "null", "-");
        // The Info tag: the frame count (so the duration is known without a scan) and the encoder's delay and padding.
        byte[] head = firstBytes(mp3, 417);
        String first = new String(head, StandardCharsets.ISO_8859_1);
        assertTrue(first.contains("Info") && first.contains("LAME"), "an Info/LAME tag in the first frame");
        double seconds =
                Double.parseDouble(Fixtures.ffprobe(mp3, "-show_entries", "format=duration", "-of", "csv=p=0"));
        assertEquals(10.0, seconds, 0.05);
        Fixtures.Ebur128 ff = Fixtures.ebur128(mp3);
        assertEquals(-14, ff.integratedLufs(), 1.0);
    }

    @Test
    void mp3LinesUpWithTheMasterSampleForSample(@TempDir Path dir) {
        Path mp3 = dir.resolve("master.mp3");
        Mp3Encoder.encode(master, mp3);
        Path decoded = dir.resolve("decoded.wav");
        Fixtures.ffmpeg("-v", "error", "-i", mp3.toString(), "-c:a", "pcm_f32le", decoded.toString());
        float[][] a = WavFiles.readAll(master);
        float[][] b = WavFiles.readAll(decoded);
        // Gapless: the decoder trims the delay and padding the Info tag names, to the sample.
        assertEquals(a[0].length, b[0].length, "decoded length in samples");
        // Lossy, so not equal; but shifted by even a few samples the correlation of music drops well below this.
        double dot = 0, ea = 0, eb = 0;
        int n = Math.min(a[0].length, b[0].length);
        for (int i = 0; i < n; i++) {
            dot += a[0][i] * b[0][i];
            ea += a[0][i] * a[0][i];
            eb += b[0][i] * b[0][i];
        }
        assertTrue(dot / Math.sqrt(ea * eb) > 0.98, "correlation " + dot / Math.sqrt(ea * eb));
    }

    static String videoMd5(Path file) {
        return Fixtures.ffmpeg("-v", "error", "-i", file.toString(), "-map", "0:v", "-c", "copy", "-f", "md5", "-")
                .trim();
    }

    static byte[] firstBytes(Path file, int n) {
        try (var in = Files.newInputStream(file)) {
            return in.readNBytes(n);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
