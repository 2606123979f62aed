package dev.scorecast.engine.sampler;

import com.fasterxml.jackson.databind.JsonNode;
import dev.scorecast.engine.instruments.BankCatalog;
import dev.scorecast.engine.instruments.BankDirectory;
import dev.scorecast.engine.io.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which instruments of the {@link BankDirectory} the sampler plays ({@code instruments/sampler.json}) and
 * those instruments, built once per instruments directory and shared by every renderer and live
 * stream of the process: one {@link SampleStore} (samples memory-mapped once per node), one
 * {@link SampledInstrument} per address, parsed when first asked for. Thread-safe.
 */
public final class SampledBanks {
    private static final Map<Path, SampledBanks> BY_DIR = new ConcurrentHashMap<>();
    /** Address (128 x bank + program, plus 1 << 20 for a kit) to SFZ resource name. */
    private static final Map<Integer, String> MAPPED = read();

    private final Path dir;
    private final SampleStore store;
    private final Map<Integer, SampledInstrument> instruments = new ConcurrentHashMap<>();

    private SampledBanks(Path dir) {
        this.dir = dir;
        this.store = new SampleStore(dir.resolve("sampler-cache"));
    }

    /** The sampled banks of the directory of {@code banks}, one object per directory in the process. */
    public static SampledBanks of(BankDirectory banks) {
        return BY_DIR.computeIfAbsent(banks.dir(), SampledBanks::new);
    }

    /** Whether the sampler plays {@code address} (a kit when {@code drums}). */
    public static boolean plays(int address, boolean drums) {
        return MAPPED.containsKey(key(address, drums));
    }

    /** The instrument at {@code address}, if the sampler plays it; its samples mapped on first use. */
    public Optional<SampledInstrument> instrument(int address, boolean drums) {
        String sfz = MAPPED.get(key(address, drums));
        if (sfz == null) {
            return Optional.empty();
        }
        return Optional.of(instruments.computeIfAbsent(
                key(address, drums), k -> SampledInstrument.parse(sfz, resource("sfz/" + sfz), dir, store)));
    }

    public SampleStore store() {
        return store;
    }

    private static int key(int address, boolean drums) {
        return (drums ? 1 << 20 : 0) | address;
    }

    private static Map<Integer, String> read() {
        try {
            JsonNode root = Json.mapper().readTree(resource("sampler.json"));
            Map<Integer, String> m = new HashMap<>();
            for (JsonNode i : root.path("instruments")) {
                int address = BankCatalog.address(
                        i.path("bank").asText(), i.path("program").asInt());
                m.put(key(address, i.path("drums").asBoolean()), i.path("sfz").asText());
            }
            return Map.copyOf(m);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read instruments/sampler.json", e);
        }
    }

    private static String resource(String name) {
        try (InputStream in = SampledBanks.class.getResourceAsStream("/instruments/" + name)) {
            if (in == null) {
                throw new IllegalStateException("instruments/" + name + " is missing from the engine jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
