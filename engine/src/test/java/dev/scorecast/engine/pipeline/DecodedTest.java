package dev.scorecast.engine.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.io.WavEncoding;
import dev.scorecast.engine.io.WavWriter;
import dev.scorecast.engine.media.Mp3Encoder;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A download is measured as it decodes, past full scale included, as FFmpeg's own meter reads it. */
class DecodedTest {
    private static final int RATE = 48_000;

    @Test
    void aDecodePastFullScaleReadsAsSuchNotClipped(@TempDir Path dir) throws Exception {
        // A square wave with its samples at -0.3 dBFS: band-limited by the encoder, it rings past full scale.
        Path master = dir.resolve("square.wav");
        float[][] x = new float[2][3 * RATE];
        for (int i = 0; i < x[0].length; i++) {
            x[0][i] = x[1][i] = (float) (Math.pow(10, -0.3 / 20) * Math.signum(Math.sin(2 * Math.PI * 441 * i / RATE)));
        }
        try (WavWriter w = WavWriter.create(master, WavEncoding.PCM16, RATE, 2)) {
            w.write(x, x[0].length);
            w.commit();
        }
        Path mp3 = dir.resolve("square.mp3");
        Mp3Encoder.encode(master, mp3);
        double ours = Decoded.measure(mp3).truePeakDbtp();
        double ffmpeg = ffmpegTruePeak(mp3);
        System.out.printf("square wave MP3: ours %.2f dBTP, ffmpeg %.2f dBTP%n", ours, ffmpeg);
        assertTrue(ours > 0.5, "the decode rings past full scale: " + ours + " dBTP");
        assertEquals(ffmpeg, ours, 0.3);
    }

    private static double ffmpegTruePeak(Path file) throws Exception {
        Process p = new ProcessBuilder(List.of(
                        "ffmpeg",
                        "-nostdin",
                        "-hide_banner",
                        "-nostats",
                        "-i",
                        file.toString(),
                        "-af",
                        "ebur128=peak=true",
                        "-f",
                        "null",
                        "-"))
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), out);
        Matcher m = Pattern.compile("Peak:\\s+(-?[0-9.]+) dBFS").matcher(out.substring(out.lastIndexOf("Summary:")));
        assertTrue(m.find(), out);
        return Double.parseDouble(m.group(1));
    }
}
