package dev.scorecast.engine.render;

import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.io.WavEncoding;
import dev.scorecast.engine.io.WavWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Mono 48 kHz sound made outside the synthesizer (the singer's lines, voiceover sentences) written
 * as the renderer writes its stems: a 32-bit float stereo WAV of exactly the score's length, with a
 * gain and a constant-power pan. The sound comes as clips placed at their first sample, so a long
 * video with a few sentences costs the sentences' memory, not the video's length.
 */
public final class MonoTracks {
    private static final int BLOCK = 4096;

    private MonoTracks() {}

    /** Mono samples that start at sample {@code at} of the track. */
    public record Clip(long at, float[] samples) {}

    /** A stem of {@code group} from {@code clips} (summed where they overlap), cut or padded with silence to {@code frames}. */
    public static Stem stem(InstrumentGroup group, List<Clip> clips, long frames, double gainDb, double pan, Path wav) {
        double peak = write(clips, frames, gainDb, pan, wav);
        return new Stem(group, wav, 20 * Math.log10(peak));
    }

    /**
     * Writes {@code clips} centred at unity gain.
     *
     * @return the sample peak
     */
    public static double track(List<Clip> clips, long frames, Path wav) {
        return write(clips, frames, 0, 0, wav);
    }

    /** A stem of {@code group} from a track built on disk ({@link MonoMix}). */
    public static Stem stem(InstrumentGroup group, MonoMix mix, double gainDb, double pan, Path wav) {
        double peak = write((pos, mono, n) -> mix.read(pos, mono, n), mix.frames(), gainDb, pan, wav);
        return new Stem(group, wav, 20 * Math.log10(peak));
    }

    /** Writes a track built on disk centred at unity gain; returns the sample peak. */
    public static double track(MonoMix mix, Path wav) {
        return write((pos, mono, n) -> mix.read(pos, mono, n), mix.frames(), 0, 0, wav);
    }

    /** Fills {@code mono[0, n)} with the track's samples from {@code pos}. */
    private interface Source {
        void fill(long pos, float[] mono, int n);
    }

    private static double write(List<Clip> clips, long frames, double gainDb, double pan, Path wav) {
        return write(
                (pos, mono, n) -> {
                    Arrays.fill(mono, 0);
                    for (Clip clip : clips) {
                        long from = Math.max(pos, clip.at());
                        long to = Math.min(pos + n, clip.at() + clip.samples().length);
                        for (long t = from; t < to; t++) {
                            mono[(int) (t - pos)] += clip.samples()[(int) (t - clip.at())];
                        }
                    }
                },
                frames,
                gainDb,
                pan,
                wav);
    }

    private static double write(Source source, long frames, double gainDb, double pan, Path wav) {
        double gain = Math.pow(10, gainDb / 20);
        // Constant power: centre is -3 dB each side, so a panned voice keeps its loudness.
        double angle = (Math.max(-1, Math.min(1, pan)) + 1) * Math.PI / 4;
        float left = (float) (gain * Math.cos(angle) * Math.sqrt(2));
        float right = (float) (gain * Math.sin(angle) * Math.sqrt(2));
        float[][] block = new float[2][BLOCK];
        double peak = 0;
        try (WavWriter out = WavWriter.scratch(wav, WavEncoding.FLOAT32, Renderer.RATE, 2)) {
            float[] mono = new float[BLOCK];
            for (long pos = 0; pos < frames; pos += BLOCK) {
                int n = (int) Math.min(BLOCK, frames - pos);
                source.fill(pos, mono, n);
                for (int i = 0; i < n; i++) {
                    float x = mono[i];
                    block[0][i] = x * left;
                    block[1][i] = x * right;
                    peak = Math.max(peak, Math.max(Math.abs(block[0][i]), Math.abs(block[1][i])));
                }
                out.write(block, n);
            }
            out.commit();
        }
        return peak;
    }
}
