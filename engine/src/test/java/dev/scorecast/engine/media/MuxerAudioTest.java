package dev.scorecast.engine.media;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.dsp.LoudnessMeter;
import dev.scorecast.engine.io.WavEncoding;
import dev.scorecast.engine.io.WavFiles;
import dev.scorecast.engine.io.WavWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The AAC in the muxed MP4 is the master: sample for sample in time, and its peaks where the
 * master's are even when the master opens on a kick at full level, which FFmpeg's encoder (8.0)
 * mangles in a stream's first frame (2.8 dB over the master's true peak here without the silent
 * frames the muxer sends first).
 */
class MuxerAudioTest {
    private static final int RATE = 48_000;

    @Test
    void aMasterOpeningOnAKickDecodesAtItsOwnPeakAndTime(@TempDir Path dir) {
        Path video = TestVideos.make(
                dir,
                "in.mp4",
                "-f lavfi -i testsrc2=size=160x120:rate=30 -t 4 -c:v libx264 -preset veryfast -pix_fmt yuv420p");
        float[][] kicks = kicks(4 * RATE);
        Path master = dir.resolve("master.wav");
        try (WavWriter w = WavWriter.create(master, WavEncoding.PCM16, RATE, 2)) {
            w.write(kicks, kicks[0].length);
            w.commit();
        }
        Path out = dir.resolve("out.mp4");
        Muxer.mux(video, master, out);
        Path decoded = dir.resolve("decoded.wav");
        AudioExtractor.extractWav(out, decoded).orElseThrow();
        float[][] in = WavFiles.readAll(master);
        float[][] back = WavFiles.readAll(decoded);

        double masterPeak = truePeak(in);
        double decodedPeak = truePeak(back);
        assertTrue(decodedPeak <= masterPeak + 0.5, "decoded " + decodedPeak + " dBTP, master " + masterPeak);
        assertEquals(0, bestOffset(in[0], back[0], 1500), "decoded audio is shifted against the master");
        assertTrue(
                Math.abs(back[0].length - in[0].length) <= 1024,
                "decoded " + back[0].length + " frames, master " + in[0].length);
    }

    /** A kick every half second from the first sample: a 250-to-50 Hz sweep, decaying, at -5 dBFS. */
    static float[][] kicks(int frames) {
        float[][] x = new float[2][frames];
        double scale = 0;
        for (int i = 0; i < frames; i++) {
            double ph = (i % (RATE / 2)) / (double) RATE;
            double v = Math.sin(2 * Math.PI * (50 * ph + 200 / 30.0 * (1 - Math.exp(-ph * 30)))) * Math.exp(-ph * 6);
            x[0][i] = (float) v;
            x[1][i] = (float) (0.9 * v);
            scale = Math.max(scale, Math.abs(v));
        }
        float g = (float) (Math.pow(10, -5 / 20.0) / scale);
        for (float[] c : x) {
            for (int i = 0; i < frames; i++) {
                c[i] *= g;
            }
        }
        return x;
    }

    private static double truePeak(float[][] x) {
        LoudnessMeter m = new LoudnessMeter(RATE, 2);
        m.accept(x, x[0].length);
        return m.finish().truePeakDbtp();
    }

    /** The shift of {@code b} against {@code a} (within +-{@code range}) with the least squared difference over the first second. */
    private static int bestOffset(float[] a, float[] b, int range) {
        int best = 0;
        double least = Double.MAX_VALUE;
        for (int off = -range; off <= range; off++) {
            double e = 0;
            for (int i = range; i < RATE; i++) {
                double d = a[i] - b[i + off];
                e += d * d;
            }
            if (e < least) {
                least = e;
                best = off;
            }
        }
        return best;
    }
}
