package dev.scorecast.engine.render;

import com.sun.media.sound.ModelByteBuffer;
import com.sun.media.sound.ModelByteBufferWavetable;
import com.sun.media.sound.ModelInstrument;
import com.sun.media.sound.ModelOscillator;
import com.sun.media.sound.ModelPatch;
import com.sun.media.sound.ModelPerformer;
import com.sun.media.sound.SF2Soundbank;
import com.sun.media.sound.SoftSynthesizer;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.UnsupportedMedia;
import dev.scorecast.engine.instruments.BankDirectory;
import dev.scorecast.engine.io.Riff;
import dev.scorecast.engine.sampler.SampledBanks;
import dev.scorecast.engine.sampler.SampledInstrument;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.sound.midi.Instrument;
import javax.sound.midi.Patch;

/**
 * The instruments every renderer plays: a General MIDI SoundFont 2 bank (bank 0) and the banks of
 * the {@link BankDirectory} (bank 1 and up), addressed as {@code 128 * bank + program}: the renderers send
 * the bank as MIDI bank select (MSB) and the program as a program change. The GM bank lends a
 * sparse bank a neighbouring program; a bank of the directory never does (a missing sound is an error).
 *
 * <p>Each SF2 bank is shared by every renderer. Opening it reads only the bank's directory
 * (presets, zones, sample headers); sample data stays in the file until an instrument is first
 * asked for, and then only that instrument's samples are read, once, for all renderers, and kept
 * as floats (twice the bytes of the file's 16-bit samples, so that no voice converts them again):
 * loading every instrument of FluidR3 would put 280 MB on the heap.
 *
 * <p>Thread-safe: instruments are resolved and their samples loaded under this object's lock, and
 * Gervill's own loader then finds them already in memory and only reads them.
 */
public final class SoundBank implements AutoCloseable {

    /** The setting that names the bank; refusals name it so an operator knows what to change. */
    static final String SETTING = "SCORECAST_SOUNDFONT";

    private final Path file;
    private final SF2Soundbank bank;
    private final BankDirectory banks;
    private final Map<Integer, ModelInstrument> loaded = new HashMap<>();
    private final Map<SampleKey, float[]> floats = new HashMap<>();
    private final SharedInstruments shared = new SharedInstruments();
    private final OnsetLatency onsets = new OnsetLatency(this);
    private boolean closed;

    private SoundBank(Path file, SF2Soundbank bank, BankDirectory banks) {
        this.file = file;
        this.bank = bank;
        this.banks = banks;
    }

    /**
     * Opens {@code sf2}.
     *
     * @throws InvalidParameter when the file does not exist
     * @throws UnsupportedMedia when it is not a SoundFont 2 bank, or is an SF3 (Ogg-compressed) one,
     *                          which Gervill would play as noise
     */
    public static SoundBank load(Path sf2) {
        return load(sf2, BankDirectory.configured());
    }

    /** {@code sf2} as bank 0 and the banks of {@code banks} above it. */
    public static SoundBank load(Path sf2, BankDirectory banks) {
        if (sf2 == null || !Files.isRegularFile(sf2)) {
            throw new InvalidParameter(
                    SETTING,
                    "No SoundFont at " + sf2 + "; set " + SETTING
                            + " to an SF2 file such as /usr/share/sounds/sf2/FluidR3_GM.sf2.");
        }
        int major = soundFontVersion(sf2);
        if (major != 2) {
            throw new UnsupportedMedia(
                    SETTING,
                    sf2.getFileName() + " is a SoundFont " + major
                            + " bank (SF3 stores Ogg-compressed samples, which the synthesizer plays as noise); set "
                            + SETTING + " to an uncompressed SF2 file.");
        }
        try {
            return new SoundBank(sf2, new SF2Soundbank(sf2.toFile()), banks);
        } catch (IOException | RuntimeException e) {
            throw new UnsupportedMedia(
                    SETTING,
                    sf2.getFileName() + " cannot be read as a SoundFont 2 bank (" + e.getMessage() + "); set " + SETTING
                            + " to a valid SF2 file.",
                    e);
        }
    }

    /**
     * Whether instruments listed in {@code instruments/sampler.json} are played by Scorecast's sampler
     * (the default) rather than by Gervill from their SF2 bank; {@code -Dscorecast.sampler=off} plays
     * everything on Gervill, as before the sampler, to compare the two.
     */
    public boolean sampler() {
        return sampler;
    }

    private volatile boolean sampler = !"off".equals(System.getProperty("scorecast.sampler", "on"));

    /** Plays the sampler's instruments on Gervill instead (false), to compare the two; for tests and benchmarks. */
    void useSampler(boolean on) {
        sampler = on;
    }

    /** The sampler's instrument at {@code address}, when the sampler plays it ({@link #sampler()}). */
    public Optional<SampledInstrument> sampled(int address, boolean drums) {
        if (!sampler || closed) {
            return Optional.empty();
        }
        return SampledBanks.of(banks).instrument(address, drums);
    }

    /** How long each instrument of this bank takes to speak (measured once, kept for the bank's life). */
    public OnsetLatency onsets() {
        return onsets;
    }

    /** The file this bank was loaded from. */
    public Path file() {
        return file;
    }

    /** The banks above the General MIDI one. */
    public BankDirectory banks() {
        return banks;
    }

    /** The program number within its bank of an address ({@code 128 * bank + program}). */
    public static int programOf(int address) {
        return address & 127;
    }

    /** The bank (MIDI bank select MSB) of an address. */
    public static int bankOf(int address) {
        return address >> 7;
    }

    /**
     * The instrument for a General MIDI {@code program} (a kit number when {@code drums}) with its
     * samples in memory. A program the bank lacks falls back to the first of its GM family of
     * eight, then to program 0 (kit 0 for drums), so that a sparse bank still sounds.
     */
    synchronized Resolved instrument(int program, boolean drums) {
        if (closed) {
            throw new IllegalStateException("the sound bank is closed");
        }
        if (program < 0 || program >= 128 * 128) {
            throw new InvalidParameter("program", "must be 0-16383 (128 x bank + program), was " + program);
        }
        if (bankOf(program) != 0) {
            int key = (drums ? 1 << 20 : 0) | program;
            ModelInstrument cached = loaded.get(key);
            if (cached == null) {
                ModelInstrument raw = banks.instrument(bankOf(program), programOf(program), drums);
                cached = playable(raw, new ModelPatch(bankOf(program) << 7, programOf(program), drums));
                loaded.put(key, cached);
            }
            return new Resolved(program, cached);
        }
        int[] candidates = drums ? new int[] {program, 0} : new int[] {program, program & ~7, 0};
        for (int p : candidates) {
            int key = drums ? 128 * 256 + p : p;
            ModelInstrument cached = loaded.get(key);
            if (cached != null) {
                return new Resolved(p, cached);
            }
            Instrument found = bank.getInstrument(new ModelPatch(0, p, drums));
            if (found instanceof ModelInstrument model) {
                ModelInstrument playable = playable(model, model.getPatch());
                loaded.put(key, playable);
                return new Resolved(p, playable);
            }
        }
        // Any bank with no program 0 at all is unusable for General MIDI.
        throw new UnsupportedMedia(
                SETTING,
                file.getFileName() + " has no " + (drums ? "drum kit " : "program ") + program
                        + " and no fallback; set " + SETTING + " to a General MIDI SF2 bank.");
    }

    /** An instrument and the program number it actually answers to (after any fallback). */
    record Resolved(int program, ModelInstrument instrument) {}

    /**
     * For a synthesizer of the live player, which loads instruments as programs change: the
     * instrument ({@link #instrument(int, boolean)}, samples shared), the program it answers to,
     * and a key that tells one loaded instrument from another.
     */
    public record Live(int key, int program, Instrument instrument) {}

    /**
     * Loads {@code live}'s instrument into {@code synth}, prepared for playing once for every
     * synthesizer ({@link SharedInstruments}); on the thread that reads the synthesizer.
     */
    public void loadInto(SoftSynthesizer synth, Live live) {
        shared.load(synth, (ModelInstrument) live.instrument());
    }

    /** Whether {@link #loadInto} shares prepared instruments (Gervill's table is open to it). */
    public static boolean sharesPreparedInstruments() {
        return SharedInstruments.sharing();
    }

    /**
     * Reads what playing {@code program} live needs, before a render loop needs it: the sampler's
     * instrument (its samples mapped) when the sampler plays it, else Gervill's ({@link #live}).
     */
    public void prepare(int program, boolean drums) {
        if (sampled(program, drums).isEmpty()) {
            live(program, drums);
        }
    }

    public Live live(int program, boolean drums) {
        Resolved r = instrument(program, drums);
        return new Live(drums ? 1 << 20 | r.program() : r.program(), r.program(), r.instrument());
    }

    @Override
    public synchronized void close() {
        // The samples are plain Java arrays; dropping the references lets the collector free them.
        loaded.clear();
        floats.clear();
        closed = true;
    }

    /**
     * The instrument's zones built once, their samples read from the file and turned into floats
     * ({@link FloatWavetable}), shared with every other instrument that plays the same sample.
     * The 16-bit bytes are dropped once converted; only the floats stay on the heap.
     */
    private ModelInstrument playable(ModelInstrument instrument, Patch patch) {
        ModelPerformer[] performers = instrument.getPerformers();
        List<ModelByteBuffer> toRead = new ArrayList<>();
        for (ModelPerformer performer : performers) {
            for (ModelOscillator osc : oscillators(performer)) {
                if (osc instanceof ModelByteBufferWavetable w
                        && FloatWavetable.holds(w)
                        && MAP_SAMPLES
                        && w.getBuffer().getFile() != null) {
                    continue; // played from the mapped file, nothing to read
                }
                if (osc instanceof ModelByteBufferWavetable w
                        && FloatWavetable.holds(w)
                        && !floats.containsKey(SampleKey.of(w.getBuffer()))) {
                    toRead.add(w.getBuffer());
                } else if (osc instanceof ModelByteBufferWavetable w && !FloatWavetable.holds(w)) {
                    // A kind the float copy does not hold (24-bit, stereo): Gervill plays its bytes, which must be in
                    // memory.
                    if (w.getBuffer() != null) {
                        toRead.add(w.getBuffer());
                    }
                    if (w.get8BitExtensionBuffer() != null) {
                        toRead.add(w.get8BitExtensionBuffer());
                    }
                }
            }
        }
        try {
            ModelByteBuffer.loadAll(toRead);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read SoundFont samples", e);
        }
        for (ModelPerformer performer : performers) {
            List<ModelOscillator> oscillators = oscillators(performer);
            for (int i = 0; i < oscillators.size(); i++) {
                if (oscillators.get(i) instanceof ModelByteBufferWavetable w && FloatWavetable.holds(w)) {
                    ModelByteBuffer bytes = w.getBuffer();
                    if (MAP_SAMPLES && bytes.getFile() != null) {
                        oscillators.set(
                                i,
                                FloatWavetable.mapped(
                                        w,
                                        mapped(bytes.getFile().toPath())
                                                .asSlice(bytes.getFilePointer(), bytes.capacity())));
                        continue;
                    }
                    float[] samples = floats.computeIfAbsent(
                            SampleKey.of(bytes),
                            k -> FloatWavetable.toFloats(
                                    bytes.array(), (int) bytes.arrayOffset(), (int) bytes.capacity()));
                    oscillators.set(i, FloatWavetable.of(w, samples));
                }
            }
        }
        // The bytes were only read to be converted; the floats are what plays.
        toRead.stream()
                .filter(b -> b.getFile() != null && floats.containsKey(SampleKey.of(b)))
                .forEach(ModelByteBuffer::unload);
        return new FloatInstrument(instrument, performers, patch);
    }

    /**
     * Whether SF2 samples are played from the memory-mapped bank file (the default) rather than copied
     * to the heap as floats ({@code -Dscorecast.sf2.heap=on}, as before): with MuseScore General's
     * instruments for every live experience, the heap copies alone took the server past a 1.5 GB heap.
     */
    private static final boolean MAP_SAMPLES = !"on".equals(System.getProperty("scorecast.sf2.heap", "off"));
    /** Each SF2 file mapped once for the process, whole; pages are read as voices play them. */
    private static final Map<Path, MemorySegment> MAPPINGS = new ConcurrentHashMap<>();

    private static MemorySegment mapped(Path file) {
        return MAPPINGS.computeIfAbsent(file.toAbsolutePath().normalize(), f -> {
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
                return ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), Arena.global());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot map " + f, e);
            }
        });
    }

    private static List<ModelOscillator> oscillators(ModelPerformer performer) {
        return performer.getOscillators() == null ? List.of() : performer.getOscillators();
    }

    /** Where a sample's bytes come from: the file and offset (or the array) and the length. */
    private record SampleKey(Object source, long position, long length) {
        static SampleKey of(ModelByteBuffer b) {
            return b.getFile() != null
                    ? new SampleKey(b.getFile(), b.getFilePointer(), b.capacity())
                    : new SampleKey(b.array(), b.arrayOffset(), b.capacity());
        }
    }

    /**
     * The major version in the bank's {@code ifil} chunk: 2 for SF2, 3 for SF3. Reads the RIFF
     * header and the INFO list only.
     *
     * @throws UnsupportedMedia when the file is not a RIFF {@code sfbk} file
     */
    static int soundFontVersion(Path sf2) {
        try (FileChannel ch = FileChannel.open(sf2, StandardOpenOption.READ)) {
            ByteBuffer head = Riff.read(ch, 0, 12);
            if (head == null
                    || !Riff.tag(head, 0).equals("RIFF")
                    || !Riff.tag(head, 8).equals("sfbk")) {
                throw notSf2(sf2);
            }
            long pos = 12;
            long end = Math.min(ch.size(), 8 + Integer.toUnsignedLong(head.getInt(4)));
            while (pos + 8 <= end) {
                ByteBuffer chunk = Riff.read(ch, pos, 12);
                if (chunk == null) {
                    break;
                }
                long size = Integer.toUnsignedLong(chunk.getInt(4));
                if (Riff.tag(chunk, 0).equals("LIST") && Riff.tag(chunk, 8).equals("INFO")) {
                    long sub = pos + 12;
                    long subEnd = Math.min(end, pos + 8 + size);
                    while (sub + 8 <= subEnd) {
                        ByteBuffer s = Riff.read(ch, sub, 12);
                        if (s == null) {
                            break;
                        }
                        long subSize = Integer.toUnsignedLong(s.getInt(4));
                        if (Riff.tag(s, 0).equals("ifil") && subSize >= 4) {
                            return Short.toUnsignedInt(s.getShort(8));
                        }
                        sub += 8 + subSize + (subSize & 1);
                    }
                    break;
                }
                pos += 8 + size + (size & 1);
            }
            throw notSf2(sf2);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + sf2, e);
        }
    }

    private static UnsupportedMedia notSf2(Path sf2) {
        return new UnsupportedMedia(
                SETTING,
                sf2.getFileName() + " is not a SoundFont 2 bank (no RIFF sfbk header with a version); set " + SETTING
                        + " to an SF2 file.");
    }
}
