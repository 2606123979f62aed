package dev.scorecast.engine.style;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.scorecast.engine.core.InstrumentGroup;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How one genre is produced, from {@code styles/production.json}: the shared send effects (a
 * room and a tempo-synced echo), the kick's sidechain, the bus glue, and per instrument group its
 * EQ, saturation, sends, stereo width and whether it ducks under the kick. Pure data; the
 * {@link dev.scorecast.engine.render.PartChain} turns it into processors.
 *
 * <p>{@code live} is the lighter chain for the live player, whose one synthesizer plays every group
 * into one stereo bus: a part's chain run on that bus (no sidechain: the kick is in it), so it is
 * EQ, saturation and width only unless the data asks for a send.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Production(
        Reverb reverb, Delay delay, Sidechain sidechain, Glue glue, Map<String, Part> parts, Part live) {

    public Production {
        Objects.requireNonNull(reverb, "reverb");
        Objects.requireNonNull(delay, "delay");
        Objects.requireNonNull(sidechain, "sidechain");
        Objects.requireNonNull(glue, "glue");
        parts = parts == null ? Map.of() : Map.copyOf(parts);
        live = live == null ? Part.DRY : live;
        for (String g : parts.keySet()) {
            if (InstrumentGroup.fromWire(g).isEmpty()) {
                throw new IllegalArgumentException("production: unknown instrument group '" + g + "'");
            }
        }
    }

    /** The offline parts with {@code parts}, the rest as they are. */
    public Production withParts(Map<String, Part> other) {
        return new Production(reverb, delay, sidechain, glue, other, live);
    }

    /** The part of {@code group}; a group the data does not name is left dry and centred. */
    public Part part(InstrumentGroup group) {
        return parts.getOrDefault(group.wire(), Part.DRY);
    }

    /** Every group's part, in group order. */
    public Map<InstrumentGroup, Part> byGroup() {
        Map<InstrumentGroup, Part> m = new EnumMap<>(InstrumentGroup.class);
        for (InstrumentGroup g : InstrumentGroup.values()) {
            m.put(g, part(g));
        }
        return m;
    }

    /** The send room: 60 dB decay time, high-frequency damping 0-0.95, pre-delay, size 0.25-4 (scales the lines). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Reverb(
            @JsonProperty("decay_s") double decaySeconds,
            double damping,
            @JsonProperty("predelay_ms") double preDelayMs,
            double size) {}

    /** The send echo: every {@code beats} beats, each repeat {@code feedback} of the last, darkened at {@code toneHz}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Delay(
            double beats,
            double feedback,
            @JsonProperty("tone_hz") double toneHz) {}

    /** The kick's hold on the parts that duck: threshold on the kick band's peak level, ratio, deepest cut, times. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Sidechain(
            @JsonProperty("threshold_dbfs") double thresholdDbfs,
            double ratio,
            @JsonProperty("depth_db") double depthDb,
            @JsonProperty("attack_ms") double attackMs,
            @JsonProperty("release_ms") double releaseMs) {}

    /** The bus compressor of the master stage: its threshold under the target loudness and its ratio. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Glue(@JsonProperty("below_target_db") double belowTargetDb, double ratio) {}

    /** One band of a part's EQ: {@code type} high_pass, low_pass, low_shelf, high_shelf or peak. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Band(String type, double hz, double db, double q) {
        public Band {
            Objects.requireNonNull(type, "eq type");
            q = q > 0 ? q : 0.707;
        }
    }

    /**
     * One group's processing, in this order: EQ, saturation ({@code saturationDb} of drive), the
     * kick's sidechain when {@code sidechain}, stereo {@code width}, then {@code spread}: width made
     * from the mid for a source that has little of its own (0 to 1, the delayed mid's level in the
     * side; {@code spreadMs} its delay, default {@value #SPREAD_MS} ms), leaving the mono sum as it
     * is. Then {@code reverb} and {@code delay} are the send levels (0-1) of the result into the
     * room and the echo.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Part(
            List<Band> eq,
            @JsonProperty("saturation_db") double saturationDb,
            double reverb,
            double delay,
            Double width,
            boolean sidechain,
            Double spread,
            @JsonProperty("spread_ms") Double spreadMs) {
        public static final double SPREAD_MS = 11;
        public static final Part DRY = new Part(List.of(), 0, 0, 0, 1.0, false);

        public Part {
            eq = eq == null ? List.of() : List.copyOf(eq);
            width = width == null ? 1.0 : width;
            spread = spread == null ? 0.0 : spread;
            spreadMs = spreadMs == null ? SPREAD_MS : spreadMs;
        }

        /** A part with no spread. */
        public Part(List<Band> eq, double saturationDb, double reverb, double delay, Double width, boolean sidechain) {
            this(eq, saturationDb, reverb, delay, width, sidechain, 0.0, SPREAD_MS);
        }
    }
}
