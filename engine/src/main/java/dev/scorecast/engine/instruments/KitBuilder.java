package dev.scorecast.engine.instruments;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.media.sound.SF2Region;
import com.sun.media.sound.SF2Sample;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the electronic drum kits of {@code instruments/kits.json} from one-shot samples into an
 * SF2 bank: one preset per kit, each General MIDI drum key a zone (two velocity layers: a soft and
 * a hard sample, or the sample low-passed below velocity 80 and as it is from 80), normalised,
 * panned, hats in one choke group. Decoding is FFmpeg's; nothing is resampled at play time.
 */
final class KitBuilder {
    /** Velocity from which a key plays its hard layer. */
    static final int HARD_FROM = 80;
    /** Drums ring out after their note-off (the writers give hits short notes); a choke or the sample's end stops them. */
    private static final double RELEASE_SECONDS = 2.5;

    private static final double MAX_SAMPLE_SECONDS = 4;

    private KitBuilder() {}

    /** Builds the kits that {@code recipe} (kits.json) describes into {@code out}. */
    static void build(JsonNode recipe, Path out) {
        Path dir = Path.of(recipe.path("source_dir").asText());
        double cutoff = recipe.path("soft_cutoff_hz").asDouble(3500);
        Sf2Writer writer = new Sf2Writer("Scorecast electronic kits");
        Map<String, float[]> decoded = new HashMap<>();
        for (JsonNode kit : recipe.path("kits")) {
            List<Sf2Writer.Zone> zones = new ArrayList<>();
            var keys = kit.path("keys").properties();
            for (var entry : keys) {
                int key = Integer.parseInt(entry.getKey());
                JsonNode k = entry.getValue();
                List<String> names = new ArrayList<>();
                k.path("samples").forEach(n -> names.add(n.asText()));
                if (names.isEmpty() || names.size() > 2) {
                    throw new IllegalArgumentException(
                            "kit " + kit.path("name").asText() + " key " + key + ": one or two samples");
                }
                double gain = Math.pow(10, Math.min(0, k.path("gain_db").asDouble(0)) / 20);
                float[] hard = level(decoded.computeIfAbsent(names.getLast(), n -> decode(dir, n)), gain);
                float[] soft = names.size() == 2
                        ? level(decoded.computeIfAbsent(names.getFirst(), n -> decode(dir, n)), gain)
                        : lowPass(hard, cutoff);
                int root = key - (int) Math.round(k.path("tune_semitones").asDouble(0));
                String name = kit.path("name").asText() + key;
                SF2Sample softSample = writer.sample(name + "s", soft, SampleDecoder.RATE, root, 0, 0);
                SF2Sample hardSample = writer.sample(name + "h", hard, SampleDecoder.RATE, root, 0, 0);
                zones.add(zone(softSample, key, 1, HARD_FROM - 1, k));
                zones.add(zone(hardSample, key, HARD_FROM, 127, k));
            }
            writer.instrument(
                    kit.path("name").asText() + " kit", kit.path("program").asInt(), true, zones);
        }
        writer.save(out);
    }

    private static Sf2Writer.Zone zone(SF2Sample sample, int key, int velLo, int velHi, JsonNode k) {
        Sf2Writer.Zone z = new Sf2Writer.Zone(sample, key, key, velLo, velHi)
                .with(SF2Region.GENERATOR_OVERRIDINGROOTKEY, sample.getOriginalPitch())
                .with(SF2Region.GENERATOR_RELEASEVOLENV, Sf2Writer.timecents(RELEASE_SECONDS))
                .with(SF2Region.GENERATOR_PAN, (int) Math.round(
                        Math.max(-1, Math.min(1, k.path("pan").asDouble(0))) * 500));
        if (k.has("choke")) {
            z.with(SF2Region.GENERATOR_EXCLUSIVECLASS, k.path("choke").asInt());
        }
        return z;
    }

    private static float[] decode(Path dir, String name) {
        return SampleDecoder.oneShot(dir, name, MAX_SAMPLE_SECONDS, 0.005, "drum sample");
    }

    /** A copy of {@code x} normalised to -1 dBFS peak, then scaled by {@code gain}. */
    static float[] level(float[] x, double gain) {
        float peak = SampleDecoder.peak(x);
        float scale = peak > 0 ? (float) (0.891 * gain / peak) : 0f;
        float[] out = new float[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = x[i] * scale;
        }
        return out;
    }

    /** A two-pole (12 dB/octave, Butterworth) low-pass of {@code x} at {@code hz}: the darker soft layer. */
    static float[] lowPass(float[] x, double hz) {
        double w = Math.tan(Math.PI * hz / SampleDecoder.RATE);
        double q = Math.sqrt(0.5);
        double norm = 1 / (1 + w / q + w * w);
        double a0 = w * w * norm;
        double a1 = 2 * a0;
        double b1 = 2 * (w * w - 1) * norm;
        double b2 = (1 - w / q + w * w) * norm;
        float[] y = new float[x.length];
        double x1 = 0, x2 = 0, y1 = 0, y2 = 0;
        for (int i = 0; i < x.length; i++) {
            double v = a0 * x[i] + a1 * x1 + a0 * x2 - b1 * y1 - b2 * y2;
            x2 = x1;
            x1 = x[i];
            y2 = y1;
            y1 = v;
            y[i] = (float) v;
        }
        return y;
    }
}
