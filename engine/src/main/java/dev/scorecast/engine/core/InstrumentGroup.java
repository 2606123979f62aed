package dev.scorecast.engine.core;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** The instrument groups of a plan, each rendered to its own stem. Wire names are lower case. */
public enum InstrumentGroup {
    BEATS,
    BASS,
    HARMONY,
    PADS,
    TOPS,
    MELODY,
    FX,
    VOCALS;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<InstrumentGroup> fromWire(String wire) {
        return Arrays.stream(values()).filter(g -> g.wire().equals(wire)).findFirst();
    }
}
