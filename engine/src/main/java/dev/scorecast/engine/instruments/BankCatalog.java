package dev.scorecast.engine.instruments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.scorecast.engine.io.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What sound banks there are beyond the General MIDI one ({@code instruments/banks.json}, read once from the
 * engine jar): each bank's number (the MIDI bank select MSB), id, title, source and license, and the address
 * {@code 128 * bank + program} the composer, the renderers and the live player choose an instrument by. Pure
 * data: it opens no file and builds nothing, so style, plan, music and live ask it freely; the instruments
 * themselves come from a {@link BankDirectory}. Thread-safe.
 */
public final class BankCatalog {

    private static final ObjectMapper JSON = Json.mapper();
    private static final Catalog CATALOG = Catalog.read();

    private BankCatalog() {}

    /** A bank: its number, id, what it is, where it comes from and under which license. */
    public record Bank(String id, int msb, String title, String source, String license) {}

    /** Every bank, by number. */
    public static List<Bank> banks() {
        return CATALOG.banks.values().stream().map(Spec::bank).toList();
    }

    /** The bank numbered {@code msb}, if there is one. */
    public static Optional<Bank> bank(int msb) {
        return Optional.ofNullable(CATALOG.banks.get(msb)).map(Spec::bank);
    }

    /**
     * The address of {@code program} in the bank named {@code bankId} (null or "gm": the General
     * MIDI bank): {@code 128 * msb + program}.
     *
     * @throws IllegalArgumentException for an unknown bank or a program outside 0-127
     */
    public static int address(String bankId, int program) {
        if (program < 0 || program > 127) {
            throw new IllegalArgumentException("a program is 0-127, was " + program);
        }
        if (bankId == null || bankId.equals("gm")) {
            return program;
        }
        Spec spec = CATALOG.byId.get(bankId);
        if (spec == null) {
            throw new IllegalArgumentException("no sound bank '" + bankId + "'; banks: " + CATALOG.byId.keySet());
        }
        return spec.msb * 128 + program;
    }

    /** Whether {@code address} (128 x bank + program) names a bank that exists. */
    public static boolean known(int address) {
        return address >= 0 && CATALOG.banks.containsKey(address >> 7);
    }

    /** The bank numbered {@code msb} with its whole entry in banks.json, or null. */
    static Spec spec(int msb) {
        return CATALOG.banks.get(msb);
    }

    /** Every bank with its whole entry, by number. */
    static Collection<Spec> specs() {
        return CATALOG.banks.values();
    }

    /** The banks' ids, for messages naming what there is. */
    static Set<String> ids() {
        return CATALOG.byId.keySet();
    }

    /** The text of {@code instruments/<name>} in the engine jar (banks.json, a builder's recipe). */
    static String resource(String name) {
        try (InputStream in = BankCatalog.class.getResourceAsStream("/instruments/" + name)) {
            if (in == null) {
                throw new IllegalStateException("instruments/" + name + " is missing from the engine jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A bank as banks.json gives it: {@code kind} says how it is opened, {@code node} holds the rest. */
    record Spec(String id, int msb, String kind, String title, String source, String license, JsonNode node) {
        Bank bank() {
            return new Bank(id, msb, title, source, license);
        }
    }

    private record Catalog(Map<Integer, Spec> banks, Map<String, Spec> byId) {
        static Catalog read() {
            try {
                JsonNode root = JSON.readTree(resource("banks.json"));
                Map<Integer, Spec> banks = new LinkedHashMap<>();
                Map<String, Spec> byId = new LinkedHashMap<>();
                for (JsonNode b : root.path("banks")) {
                    Spec s = new Spec(
                            b.path("id").asText(),
                            b.path("msb").asInt(),
                            b.path("kind").asText(),
                            b.path("title").asText(),
                            b.path("source").asText(),
                            b.path("license").asText(),
                            b);
                    if (s.msb < 0 || s.msb > 127 || banks.put(s.msb, s) != null || byId.put(s.id, s) != null) {
                        throw new IllegalStateException(
                                "banks.json: bank " + s.id + " repeats a number or id, or is outside 0-127");
                    }
                }
                return new Catalog(Map.copyOf(banks), Map.copyOf(byId));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read instruments/banks.json", e);
            }
        }
    }
}
