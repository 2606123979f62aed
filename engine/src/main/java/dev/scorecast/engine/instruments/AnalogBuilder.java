package dev.scorecast.engine.instruments;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.media.sound.SF2Sample;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Renders the patches of {@code instruments/analog.json} with {@link AnalogPatch} into multisampled
 * SF2 instruments: a root every {@link #STEP} semitones over the patch's range, two velocity layers
 * (soft: the filter opens less), sustaining patches looped over a crossfaded stretch of their steady
 * part so a held note sounds as long as it is held.
 */
final class AnalogBuilder {
    static final int STEP = 4;
    /** Velocity from which the bright layer plays. */
    static final int BRIGHT_FROM = 80;

    private static final double CROSSFADE_SECONDS = 0.25;

    private AnalogBuilder() {}

    static void build(JsonNode recipe, Path out) {
        Sf2Writer writer = new Sf2Writer("Scorecast analog");
        for (JsonNode patch : recipe.path("patches")) {
            AnalogPatch analog = new AnalogPatch(
                    patch.path("saws").asInt(0),
                    patch.path("squares").asInt(0),
                    patch.path("detune_cents").asDouble(0),
                    patch.path("sub").asDouble(0),
                    patch.path("cutoff_hz").asDouble(),
                    patch.path("key_track").asDouble(0.5),
                    patch.path("env_hz").asDouble(0),
                    patch.path("env_seconds").asDouble(0.2),
                    patch.path("resonance").asDouble(0),
                    patch.path("drive").asDouble(0),
                    patch.path("amp_decay").asDouble(0));
            int lo = patch.path("range").path(0).asInt(24);
            int hi = patch.path("range").path(1).asInt(96);
            double seconds = patch.path("seconds").asDouble(2.5);
            boolean sustains = analog.ampDecay() == 0;
            double softness = patch.path("soft_brightness").asDouble(0.55);
            JsonNode env = patch.path("envelope");
            List<Sf2Writer.Zone> zones = new ArrayList<>();
            String name = patch.path("name").asText();
            for (int root = lo; root <= hi; root += STEP) {
                int keyLo = root == lo ? 0 : root - STEP / 2;
                int keyHi = root + STEP > hi ? 127 : root + STEP / 2 - 1;
                for (int layer = 0; layer < 2; layer++) {
                    float[] x = analog.render(
                            root, layer == 0 ? softness : 1, seconds, SampleDecoder.RATE, root * 31L + layer);
                    int loopStart = 0;
                    int loopEnd = 0;
                    if (sustains) {
                        loopEnd = x.length - 1;
                        loopStart = loopStart(x.length, seconds);
                        crossfade(x, loopStart, loopEnd);
                    } else {
                        SampleDecoder.fadeOut(x, 0.02);
                    }
                    float gain = (float) Math.pow(10, patch.path("gain_db").asDouble(0) / 20);
                    for (int i = 0; i < x.length; i++) {
                        x[i] *= gain;
                    }
                    SF2Sample s = writer.sample(
                            name + root + (layer == 0 ? "s" : "h"), x, SampleDecoder.RATE, root, loopStart, loopEnd);
                    Sf2Writer.Zone z = new Sf2Writer.Zone(
                                    s, keyLo, keyHi, layer == 0 ? 1 : BRIGHT_FROM, layer == 0 ? BRIGHT_FROM - 1 : 127)
                            .envelope(
                                    env.path("attack").asDouble(0.003),
                                    env.path("decay").asDouble(1),
                                    env.path("sustain_db").asDouble(0),
                                    env.path("release").asDouble(0.15));
                    if (sustains) {
                        z.looped();
                    }
                    zones.add(z);
                }
            }
            writer.instrument(name, patch.path("program").asInt(), false, zones);
        }
        writer.save(out);
    }

    /** The loop starts past the filter envelope, in the second half of the sample. */
    private static int loopStart(int length, double seconds) {
        return length / 2;
    }

    /**
     * Blends the end of the loop into the audio just before its start, so that jumping from
     * {@code end} back to {@code start} continues the waveform without a click.
     */
    static void crossfade(float[] x, int start, int end) {
        int n = Math.min((int) (CROSSFADE_SECONDS * SampleDecoder.RATE), start);
        for (int i = 0; i < n; i++) {
            double t = (i + 1) / (double) n;
            int at = end - n + i;
            x[at] = (float) (x[at] * Math.sqrt(1 - t) + x[start - n + i] * Math.sqrt(t));
        }
    }
}
