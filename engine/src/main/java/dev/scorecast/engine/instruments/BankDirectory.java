package dev.scorecast.engine.instruments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.media.sound.ModelInstrument;
import com.sun.media.sound.ModelPatch;
import com.sun.media.sound.SF2Soundbank;
import com.sun.media.sound.SimpleInstrument;
import dev.scorecast.engine.error.UnsupportedMedia;
import dev.scorecast.engine.instruments.BankCatalog.Spec;
import dev.scorecast.engine.io.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.sound.midi.Instrument;

/**
 * The instruments of the banks the {@link BankCatalog} names, from files: SF2 files from Debian
 * (MuseScore General, the AVL drum kits) and banks Scorecast builds once from their sources
 * (electronic kits from sonic-pi-samples, the Salamander piano, the analog voices; decoded with
 * FFmpeg by the {@code *Builder} classes) into the {@value #SETTING} directory.
 *
 * <p>A bank is opened (its directory read, built first if need be) when an instrument of it is first
 * asked for. An address whose bank or program does not exist is refused, never replaced by another
 * sound. Thread-safe.
 */
public final class BankDirectory {

    /** The setting naming the directory of built banks and downloaded samples. */
    public static final String SETTING = "SCORECAST_INSTRUMENTS";
    /** Where the instruments go inside the repository when the setting is unset. */
    public static final String DEFAULT_DIR = "models/instruments";
    /** Bumped when a builder changes what it writes, so banks built by an older one are rebuilt. */
    private static final int BUILDERS_VERSION = 1;

    private static final String FIX =
            "run bin/scorecast serve or bin/test once (they install Scorecast's instrument sources)," + " or point "
                    + SETTING + " at a directory that holds them";
    private static final ObjectMapper JSON = Json.mapper();

    private final Path dir;
    private final Map<Integer, Opened> opened = new HashMap<>();

    private BankDirectory(Path dir) {
        this.dir = dir;
    }

    /** The banks in {@code dir}. */
    public static BankDirectory in(Path dir) {
        return new BankDirectory(dir.toAbsolutePath().normalize());
    }

    /** The banks of the {@value #SETTING} setting (property {@code scorecast.instruments} first), else {@value #DEFAULT_DIR} in the repository. */
    public static BankDirectory configured() {
        String property = System.getProperty("scorecast.instruments");
        if (property != null && !property.isBlank()) {
            return in(Path.of(property));
        }
        String env = System.getenv(SETTING);
        if (env != null && !env.isBlank()) {
            return in(Path.of(env));
        }
        return in(Path.of(System.getProperty("scorecast.repository", ".")).resolve(DEFAULT_DIR));
    }

    public Path dir() {
        return dir;
    }

    /**
     * The instrument at {@code program} (a kit when {@code drums}) of bank {@code msb} (not 0: the
     * General MIDI bank is the caller's), as its SF2 file holds it (samples not yet read).
     *
     * @throws UnsupportedMedia when the bank or the program does not exist or the bank's sources are missing
     */
    public synchronized ModelInstrument instrument(int msb, int program, boolean drums) {
        Spec spec = BankCatalog.spec(msb);
        if (spec == null || msb == 0) {
            throw new UnsupportedMedia(
                    SETTING, "there is no sound bank " + msb + " (banks: " + BankCatalog.ids() + ")");
        }
        Opened bank = opened(spec);
        ModelInstrument found = bank.instruments.get(key(program, drums));
        if (found == null) {
            throw new UnsupportedMedia(
                    SETTING,
                    "the sound bank '" + spec.id() + "' has no " + (drums ? "kit " : "program ") + program + " (it has "
                            + bank.instruments.keySet().stream()
                                    .sorted()
                                    .map(BankDirectory::describe)
                                    .toList() + ")");
        }
        return found;
    }

    /** Opens every bank whose sources are here, building what needs building; for installation and tests. */
    public synchronized void openAll() {
        for (Spec spec : BankCatalog.specs()) {
            if (spec.msb() != 0) {
                opened(spec);
            }
        }
    }

    /** The instruments of bank {@code msb} as (drums, program) pairs, opening it. */
    public synchronized List<int[]> programs(int msb) {
        Spec spec = BankCatalog.spec(msb);
        if (spec == null || msb == 0) {
            return List.of();
        }
        Opened bank = opened(spec);
        return bank.instruments.keySet().stream()
                .sorted()
                .map(k -> new int[] {k >= 128 ? 1 : 0, k & 127})
                .toList();
    }

    private Opened opened(Spec spec) {
        Opened bank = opened.get(spec.msb());
        if (bank == null) {
            bank = open(spec);
            opened.put(spec.msb(), bank);
        }
        return bank;
    }

    private static int key(int program, boolean drums) {
        return (drums ? 128 : 0) + program;
    }

    private static String describe(int key) {
        return (key >= 128 ? "kit " : "program ") + (key & 127);
    }

    private Opened open(Spec spec) {
        Map<Integer, ModelInstrument> instruments = new HashMap<>();
        switch (spec.kind()) {
            case "file" -> {
                for (Instrument i : soundbank(Path.of(spec.node().path("file").asText()), spec)
                        .getInstruments()) {
                    if (i instanceof ModelInstrument m && i.getPatch() instanceof ModelPatch p && p.getBank() == 0) {
                        instruments.putIfAbsent(key(p.getProgram(), p.isPercussion()), m);
                    }
                }
            }
            case "kits" -> {
                JsonNode borrow = spec.node().path("borrow");
                ModelInstrument lender = borrow.isMissingNode()
                        ? null
                        : instrument(
                                BankCatalog.address(borrow.path("bank").asText(), 0) >> 7,
                                borrow.path("kit").asInt(),
                                true);
                spec.node().path("kits").properties().forEach(e -> {
                    Instrument[] all =
                            soundbank(Path.of(e.getValue().asText()), spec).getInstruments();
                    if (all.length == 0 || !(all[0] instanceof ModelInstrument m)) {
                        throw new UnsupportedMedia(SETTING, e.getValue().asText() + " holds no instrument");
                    }
                    int program = Integer.parseInt(e.getKey());
                    if (lender == null) {
                        instruments.put(key(program, true), m);
                        return;
                    }
                    // Keys the kit lacks that the patterns play (the GM acoustic bass drum, the shaker) come from
                    // another kit.
                    SimpleInstrument kit = new SimpleInstrument();
                    kit.setName(m.getName());
                    kit.setPatch(new ModelPatch(0, program, true));
                    kit.add(m);
                    borrow.path("keys").forEach(k -> kit.add(lender, k.asInt(), k.asInt()));
                    instruments.put(key(program, true), kit);
                });
            }
            case "built" -> {
                Path file = built(spec);
                for (Instrument i : soundbank(file, spec).getInstruments()) {
                    if (i instanceof ModelInstrument m && i.getPatch() instanceof ModelPatch p) {
                        instruments.put(key(p.getProgram(), p.isPercussion()), m);
                    }
                }
            }
            default -> throw new IllegalStateException("bank " + spec.id() + ": unknown kind " + spec.kind());
        }
        return new Opened(instruments);
    }

    private static SF2Soundbank soundbank(Path file, Spec spec) {
        if (!Files.isRegularFile(file)) {
            throw new UnsupportedMedia(
                    SETTING,
                    "the sound bank '" + spec.id() + "' needs " + file + ", which is missing (" + spec.source() + "); "
                            + FIX);
        }
        try {
            return new SF2Soundbank(file.toFile());
        } catch (IOException | RuntimeException e) {
            throw new UnsupportedMedia(
                    SETTING, file + " cannot be read as an SF2 bank (" + e.getMessage() + "); " + FIX, e);
        }
    }

    /** The built bank's file, built now when missing; its name carries a hash of its recipe, so a changed recipe builds anew. */
    private Path built(Spec spec) {
        String recipe = spec.node().has("recipe")
                ? BankCatalog.resource(spec.node().path("recipe").asText())
                : spec.node().toString();
        Path file = dir.resolve(spec.id() + "-" + hash(BUILDERS_VERSION + recipe + spec.node()) + ".sf2");
        if (Files.isRegularFile(file)) {
            return file;
        }
        try {
            switch (spec.node().path("builder").asText()) {
                case "kits" -> KitBuilder.build(JSON.readTree(recipe), file);
                case "analog" -> AnalogBuilder.build(JSON.readTree(recipe), file);
                case "fx" -> FxBuilder.build(JSON.readTree(recipe), file);
                case "piano" -> {
                    List<Path> layers = new ArrayList<>();
                    List<JsonNode> specs = new ArrayList<>();
                    spec.node().path("layers").forEach(specs::add);
                    int[] velocities = new int[specs.size()];
                    int[] upTo = new int[specs.size()];
                    for (int i = 0; i < specs.size(); i++) {
                        velocities[i] = specs.get(i).path("velocity").asInt();
                        upTo[i] = specs.get(i).path("up_to").asInt();
                        layers.add(dir.resolve("salamander").resolve("v" + velocities[i]));
                    }
                    PianoBuilder.build(layers, velocities, upTo, file);
                }
                default -> throw new IllegalStateException("bank " + spec.id() + ": unknown builder");
            }
        } catch (IllegalStateException e) {
            throw new UnsupportedMedia(
                    SETTING, "cannot build the sound bank '" + spec.id() + "': " + e.getMessage() + "; " + FIX, e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    private static String hash(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private record Opened(Map<Integer, ModelInstrument> instruments) {}
}
