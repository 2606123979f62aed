package dev.scorecast.engine.sampler;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An instrument described by an SFZ file: its zones, indexed by key, their samples mapped through
 * the node's {@link SampleStore}. Immutable once built; every sampler of the process plays the same
 * object.
 */
public final class SampledInstrument {
    private final String name;
    final Zone[][] attackByKey = new Zone[128][];
    final Zone[][] releaseByKey = new Zone[128][];
    private final int zoneCount;

    private SampledInstrument(String name, List<Zone> zones) {
        this.name = name;
        this.zoneCount = zones.size();
        for (int k = 0; k < 128; k++) {
            List<Zone> a = new ArrayList<>();
            List<Zone> r = new ArrayList<>();
            for (Zone z : zones) {
                if (k >= z.loKey && k <= z.hiKey) {
                    (z.trigger == Zone.Trigger.RELEASE ? r : a).add(z);
                }
            }
            attackByKey[k] = a.toArray(Zone[]::new);
            releaseByKey[k] = r.toArray(Zone[]::new);
        }
    }

    /**
     * The instrument of the SFZ text {@code sfz}, its sample paths resolved against {@code sampleDir},
     * every sample mapped now (decoded first if the store has not yet), so no voice ever waits for a disk.
     */
    public static SampledInstrument parse(String name, String sfz, Path sampleDir, SampleStore store) {
        List<Zone> zones = new ArrayList<>();
        for (Map<String, String> opcodes : Sfz.regions(sfz, name)) {
            Zone z = new Zone(opcodes, sampleDir);
            z.sample = store.get(z.samplePath);
            zones.add(z);
        }
        if (zones.isEmpty()) {
            throw new IllegalArgumentException(name + " has no region");
        }
        return new SampledInstrument(name, zones);
    }

    /** The instrument of the SFZ file {@code file}, samples relative to {@code sampleDir}. */
    public static SampledInstrument load(Path file, Path sampleDir, SampleStore store) {
        try {
            return parse(
                    file.getFileName().toString(), Files.readString(file, StandardCharsets.UTF_8), sampleDir, store);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    public String name() {
        return name;
    }

    public int zones() {
        return zoneCount;
    }
}
