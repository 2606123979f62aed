package dev.scorecast.engine.voice;

import dev.scorecast.engine.io.WavEncoding;
import dev.scorecast.engine.io.WavWriter;
import java.nio.file.Path;

/** Test helpers: keep audio under target/voice-test so a person can listen or draw a spectrogram. */
public final class VoiceTestAudio {

    public static final Path DIR = Path.of("target", "voice-test");

    private VoiceTestAudio() {}

    public static Path writeWav(String name, float[] x, int rate) {
        Path file = DIR.resolve(name);
        try (WavWriter w = WavWriter.create(file, WavEncoding.PCM16, rate, 1)) {
            w.write(new float[][] {x}, x.length);
            w.commit();
        }
        return file;
    }

    public static float[] sine(double hz, double seconds, int rate, double amplitude) {
        float[] x = new float[(int) Math.round(seconds * rate)];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) (amplitude * Math.sin(2 * Math.PI * hz * i / rate));
        }
        return x;
    }
}
