package dev.scorecast.engine.voice;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.sound.sampled.AudioFileFormat;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioInputStream;
import javax.sound.sampled.AudioSystem;

/** Test helpers: keep audio under target/voice-test so a person can listen or draw a spectrogram. */
final class VoiceTestAudio {

    static final Path DIR = Path.of("target", "voice-test");

    private VoiceTestAudio() {}

    static Path writeWav(String name, float[] x, int rate) {
        ByteBuffer b = ByteBuffer.allocate(x.length * 2).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : x) {
            b.putShort((short) Math.round(Math.max(-1, Math.min(1, v)) * 32767));
        }
        AudioFormat format = new AudioFormat(rate, 16, 1, true, false);
        try {
            Files.createDirectories(DIR);
            Path file = DIR.resolve(name);
            try (AudioInputStream in = new AudioInputStream(new ByteArrayInputStream(b.array()), format, x.length)) {
                AudioSystem.write(in, AudioFileFormat.Type.WAVE, file.toFile());
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static float[] sine(double hz, double seconds, int rate, double amplitude) {
        float[] x = new float[(int) Math.round(seconds * rate)];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) (amplitude * Math.sin(2 * Math.PI * hz * i / rate));
        }
        return x;
    }
}
