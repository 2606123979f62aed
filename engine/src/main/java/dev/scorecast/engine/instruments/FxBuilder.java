package dev.scorecast.engine.instruments;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.media.sound.SF2Region;
import com.sun.media.sound.SF2Sample;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Builds the effects of {@code instruments/fx.json} into an SF2 bank: risers that swell into a hit
 * and impacts that mark it, each a one-shot played at the same pitch on every key (a riser is cut
 * where the music lands, an impact rings out). A sound is either layers of one-shot samples mixed
 * (each optionally reversed, so a crash's decay becomes a swell that peaks at its end) or a
 * synthesised noise riser. Two velocity layers: below {@link KitBuilder#HARD_FROM} the sound is
 * low-passed, so a soft riser is darker, not only quieter.
 */
final class FxBuilder {
    private static final double MAX_SAMPLE_SECONDS = 8;

    private FxBuilder() {}

    static void build(JsonNode recipe, Path out) {
        Path dir = Path.of(recipe.path("source_dir").asText());
        double cutoff = recipe.path("soft_cutoff_hz").asDouble(2500);
        Sf2Writer writer = new Sf2Writer("Scorecast effects");
        Map<String, float[]> decoded = new HashMap<>();
        for (JsonNode sound : recipe.path("sounds")) {
            String name = sound.path("name").asText();
            float[] hard = sound.has("riser")
                    ? NoiseRiser.of(sound.path("riser")).render(SampleDecoder.RATE)
                    : mix(sound, dir, decoded);
            double seconds = sound.path("max_seconds").asDouble(MAX_SAMPLE_SECONDS);
            if (hard.length > seconds * SampleDecoder.RATE) {
                hard = Arrays.copyOf(hard, (int) (seconds * SampleDecoder.RATE));
                SampleDecoder.fadeOut(hard, 0.5);
            }
            hard = KitBuilder.level(hard, gain(sound));
            float[] soft = KitBuilder.lowPass(hard, cutoff);
            SF2Sample softSample = writer.sample(name + "s", soft, SampleDecoder.RATE, 60, 0, 0);
            SF2Sample hardSample = writer.sample(name + "h", hard, SampleDecoder.RATE, 60, 0, 0);
            double release = sound.path("release").asDouble(0.05);
            List<Sf2Writer.Zone> zones = new ArrayList<>();
            for (int key = 0; key < 128; key++) {
                // Every key plays the sound at its own pitch: the writers pick keys for the tonic, not for the effect.
                zones.add(zone(softSample, key, 1, KitBuilder.HARD_FROM - 1, release));
                zones.add(zone(hardSample, key, KitBuilder.HARD_FROM, 127, release));
            }
            writer.instrument(name, sound.path("program").asInt(), false, zones);
        }
        writer.save(out);
    }

    private static Sf2Writer.Zone zone(SF2Sample sample, int key, int velLo, int velHi, double release) {
        return new Sf2Writer.Zone(sample, key, key, velLo, velHi)
                .with(SF2Region.GENERATOR_OVERRIDINGROOTKEY, key)
                .with(SF2Region.GENERATOR_RELEASEVOLENV, Sf2Writer.timecents(release));
    }

    /** The sound's sample layers, each at its gain (dB re its own -1 dBFS peak), reversed where asked, summed. */
    private static float[] mix(JsonNode sound, Path dir, Map<String, float[]> decoded) {
        float[] out = new float[0];
        for (JsonNode layer : sound.path("layers")) {
            String sample = layer.path("sample").asText();
            // level makes a copy, so reversing it leaves the decoded sample shared by other layers as it is.
            float[] x = KitBuilder.level(decoded.computeIfAbsent(sample, n -> decode(dir, n)), gain(layer));
            if (layer.path("reverse").asBoolean(false)) {
                reverse(x);
            }
            int offset = (int) Math.round(layer.path("delay_ms").asDouble(0) * SampleDecoder.RATE / 1000);
            if (offset + x.length > out.length) {
                out = Arrays.copyOf(out, offset + x.length);
            }
            for (int i = 0; i < x.length; i++) {
                out[offset + i] += x[i];
            }
        }
        if (out.length == 0) {
            throw new IllegalStateException(
                    "effect " + sound.path("name").asText() + " has neither layers nor a riser");
        }
        return out;
    }

    private static float[] decode(Path dir, String name) {
        return SampleDecoder.oneShot(dir, name, MAX_SAMPLE_SECONDS, 0.01, "effect sample");
    }

    private static void reverse(float[] x) {
        for (int i = 0, j = x.length - 1; i < j; i++, j--) {
            float t = x[i];
            x[i] = x[j];
            x[j] = t;
        }
    }

    /** A recipe's {@code gain_db} as a linear factor; never above 0 dB, so no sample clips past -1 dBFS. */
    private static double gain(JsonNode node) {
        return Math.pow(10, Math.min(0, node.path("gain_db").asDouble(0)) / 20);
    }

    /**
     * A riser: white noise through a band-pass whose centre climbs exponentially from
     * {@code fromHz} to {@code toHz}, under a saw tone gliding from MIDI note {@code toneFrom} to
     * {@code toneTo}, both swelling from {@code startDb} to full level along a curve of
     * {@code curve} (2: slow, then fast, as tension builds). It ends at its loudest: the writer cuts
     * it there, just before the hit.
     */
    record NoiseRiser(
            double seconds,
            double fromHz,
            double toHz,
            double toneFrom,
            double toneTo,
            double toneLevel,
            double startDb,
            double curve,
            long seed) {
        static NoiseRiser of(JsonNode n) {
            return new NoiseRiser(
                    n.path("seconds").asDouble(4),
                    n.path("from_hz").asDouble(300),
                    n.path("to_hz").asDouble(9000),
                    n.path("tone_from").asDouble(48),
                    n.path("tone_to").asDouble(72),
                    n.path("tone_level").asDouble(0.3),
                    n.path("start_db").asDouble(-36),
                    n.path("curve").asDouble(2),
                    n.path("seed").asLong(1));
        }

        float[] render(int rate) {
            int n = (int) Math.round(seconds * rate);
            float[] x = new float[n];
            SplittableRandom random = new SplittableRandom(seed);
            // A state-variable band-pass (Chamberlin), retuned every sample; Q about 2.
            double low = 0;
            double band = 0;
            double damping = 0.5;
            double phase = 0;
            double toneLow = 0;
            for (int i = 0; i < n; i++) {
                double t = (double) i / n;
                double hz = fromHz * Math.pow(toHz / fromHz, t);
                double f = 2 * Math.sin(Math.PI * Math.min(hz, rate / 6.0) / rate);
                double noise = random.nextDouble() * 2 - 1;
                low += f * band;
                double high = noise - low - damping * band;
                band += f * high;
                double note = toneFrom + (toneTo - toneFrom) * t;
                phase += 440 * Math.pow(2, (note - 69) / 12) / rate;
                phase -= Math.floor(phase);
                double saw = 2 * phase - 1;
                // The tone is softened by a one-pole low-pass that opens as it climbs.
                double a = Math.min(1, 2 * Math.PI * (800 + 6000 * t) / rate);
                toneLow += a * (saw - toneLow);
                double level = Math.pow(10, startDb * (1 - Math.pow(t, curve)) / 20);
                x[i] = (float) (level * (band + toneLevel * toneLow));
            }
            // No click where it ends: the last 8 ms fade, and the writer's gap follows.
            SampleDecoder.fadeOut(x, 0.008);
            return x;
        }
    }
}
