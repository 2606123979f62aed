package dev.scorecast.engine.instruments;

import dev.scorecast.engine.core.AudioRate;
import dev.scorecast.engine.error.UnsupportedMedia;
import dev.scorecast.engine.io.WavReader;
import dev.scorecast.engine.media.AudioExtractor;
import dev.scorecast.engine.media.AudioTrack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Decodes a sample file (FLAC, Ogg Vorbis, anything FFmpeg reads) to 48 kHz stereo floats, through
 * the same FFmpeg extraction the pipeline uses for a video's sound.
 */
final class SampleDecoder {
    static final int RATE = AudioRate.HZ;

    private SampleDecoder() {}

    /** The two channels of {@code file}, {@code [2][frames]}, at most {@code maxSeconds} long. */
    static float[][] stereo(Path file, double maxSeconds) {
        Path wav = null;
        try {
            wav = Files.createTempFile("scorecast-sample", ".wav");
            AudioTrack track = AudioExtractor.extractWav(file, wav)
                    .orElseThrow(() -> new UnsupportedMedia("sample", file + " has no audio"));
            int frames = (int) Math.min(track.frames(), Math.round(maxSeconds * RATE));
            float[][] out = new float[2][frames];
            try (WavReader in = WavReader.open(wav, "sample", "the instrument builder")) {
                int block = 8192;
                float[][] buf = new float[2][block];
                for (int pos = 0; pos < frames; pos += block) {
                    int n = Math.min(block, frames - pos);
                    in.readStereo(buf, n);
                    System.arraycopy(buf[0], 0, out[0], pos, n);
                    System.arraycopy(buf[1], 0, out[1], pos, n);
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot decode " + file, e);
        } finally {
            if (wav != null) {
                try {
                    Files.deleteIfExists(wav);
                } catch (IOException ignored) {
                    // a temporary file; the system cleans its temp directory
                }
            }
        }
    }

    /** {@code file} as one channel, the mean of its two. */
    static float[] mono(Path file, double maxSeconds) {
        float[][] s = stereo(file, maxSeconds);
        float[] out = new float[s[0].length];
        for (int i = 0; i < out.length; i++) {
            out[i] = 0.5f * (s[0][i] + s[1][i]);
        }
        return out;
    }

    /**
     * The sonic-pi one-shot {@code name} (a FLAC in {@code dir}) as one channel, at most
     * {@code maxSeconds}, its last {@code fadeSeconds} faded; {@code what} names it in the refusal
     * when the package is missing.
     */
    static float[] oneShot(Path dir, String name, double maxSeconds, double fadeSeconds, String what) {
        Path file = dir.resolve(name + ".flac");
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException(
                    "the " + what + " " + file + " is missing; install Debian's sonic-pi-samples");
        }
        float[] x = mono(file, maxSeconds);
        fadeOut(x, fadeSeconds);
        return x;
    }

    /** Fades the last {@code seconds} of {@code x} out (a cosine), so a shortened sample ends without a click. */
    static void fadeOut(float[] x, double seconds) {
        int n = Math.min(x.length, (int) Math.round(seconds * RATE));
        for (int i = 0; i < n; i++) {
            x[x.length - n + i] *= (float) (0.5 + 0.5 * Math.cos(Math.PI * (i + 1) / n));
        }
    }

    /** The largest absolute sample. */
    static float peak(float[] x) {
        float p = 0;
        for (float v : x) {
            p = Math.max(p, Math.abs(v));
        }
        return p;
    }
}
