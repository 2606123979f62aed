package dev.scorecast.engine.render;

import com.sun.media.sound.ModelInstrument;
import com.sun.media.sound.ModelPatch;
import com.sun.media.sound.SoftInstrument;
import com.sun.media.sound.SoftSynthesizer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.HashMap;
import java.util.Map;
import javax.sound.midi.Patch;

/**
 * Gives synthesizers instruments that are already prepared for playing.
 *
 * <p>Gervill prepares an instrument for each synthesizer it is loaded into: every zone of it
 * becomes a {@code SoftPerformer}, its modulators resolved through hash maps of string keys. That
 * took 25 to 50 ms for a genre's nine programs on this machine, on the render loop of the live
 * player, where a stream that starts or changes must not hold up the others (85 ms of look-ahead).
 * The prepared form only describes the instrument (voices read it, never change it), so it is made
 * once per instrument here and put straight into each synthesizer's instrument table.
 *
 * <p>The table is private to Gervill: this needs {@code --add-opens
 * java.desktop/com.sun.media.sound=ALL-UNNAMED} (the server jar's manifest, the Maven test runs).
 * Without it every synthesizer prepares its own copy, as Gervill does, with one warning.
 */
final class SharedInstruments {
    private static final System.Logger LOG = System.getLogger(SharedInstruments.class.getName());
    private static final VarHandle INSTRUMENTS;
    private static final VarHandle LOADED;

    static {
        VarHandle instruments = null;
        VarHandle loaded = null;
        try {
            var lookup = MethodHandles.privateLookupIn(SoftSynthesizer.class, MethodHandles.lookup());
            instruments = lookup.findVarHandle(SoftSynthesizer.class, "inslist", Map.class);
            loaded = lookup.findVarHandle(SoftSynthesizer.class, "loadedlist", Map.class);
        } catch (IllegalAccessException | NoSuchFieldException | RuntimeException e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Gervill's instrument table is not open to Scorecast (" + e.getMessage()
                            + "); every live synthesizer prepares its own instruments, which costs the render loops time: run with"
                            + " --add-opens java.desktop/com.sun.media.sound=ALL-UNNAMED");
        }
        INSTRUMENTS = instruments;
        LOADED = loaded;
    }

    private final Map<ModelInstrument, SoftInstrument> prepared = new HashMap<>();

    /** Whether instruments are shared (the table is open), rather than prepared per synthesizer. */
    static boolean sharing() {
        return INSTRUMENTS != null;
    }

    /**
     * Makes {@code instrument} playable by {@code synth}. Call it on the thread that reads the
     * synthesizer's audio, or before anyone does: Gervill reads the table on that thread.
     */
    @SuppressWarnings("unchecked")
    void load(SoftSynthesizer synth, ModelInstrument instrument) {
        if (INSTRUMENTS == null) {
            synth.loadInstrument(instrument);
            return;
        }
        SoftInstrument ready;
        synchronized (prepared) {
            ready = prepared.computeIfAbsent(instrument, SoftInstrument::new);
        }
        String key = key(instrument.getPatch());
        ((Map<String, SoftInstrument>) INSTRUMENTS.get(synth)).put(key, ready);
        ((Map<String, ModelInstrument>) LOADED.get(synth)).put(key, instrument);
    }

    /** Gervill's name for a patch in its table. */
    private static String key(Patch patch) {
        return (patch instanceof ModelPatch p && p.isPercussion() ? "p." : "") + patch.getProgram() + "."
                + patch.getBank();
    }
}
