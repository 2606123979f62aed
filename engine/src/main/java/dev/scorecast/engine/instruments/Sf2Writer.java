package dev.scorecast.engine.instruments;

import com.sun.media.sound.ModelPatch;
import com.sun.media.sound.SF2Instrument;
import com.sun.media.sound.SF2InstrumentRegion;
import com.sun.media.sound.SF2Layer;
import com.sun.media.sound.SF2LayerRegion;
import com.sun.media.sound.SF2Region;
import com.sun.media.sound.SF2Sample;
import com.sun.media.sound.SF2Soundbank;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds a SoundFont 2 bank with Gervill's own SF2 classes, so that what Scorecast builds from raw
 * samples (drum kits, the piano, the analog voices) loads and plays exactly like any other SF2 bank.
 * Samples are 16-bit mono (what {@code FloatWavetable} holds); a stereo source becomes two zones
 * panned hard left and right.
 */
final class Sf2Writer {
    /** SF2 sample type of a mono sample. */
    private static final int MONO = 1;

    private final SF2Soundbank bank = new SF2Soundbank();
    private int samples;

    Sf2Writer(String name) {
        bank.setName(name);
        bank.setVendor("Scorecast");
        bank.setTools("Scorecast instruments");
    }

    /** A sample of {@code data} (floats, -1..1, clipped) at {@code rate}, its root key {@code root}; looped when {@code loopEnd > loopStart}. */
    SF2Sample sample(String name, float[] data, int rate, int root, int loopStart, int loopEnd) {
        byte[] bytes = new byte[data.length * 2];
        for (int i = 0; i < data.length; i++) {
            int v = (int) Math.round(Math.max(-1, Math.min(1, data[i])) * 32767);
            bytes[2 * i] = (byte) v;
            bytes[2 * i + 1] = (byte) (v >> 8);
        }
        SF2Sample s = new SF2Sample(bank);
        s.setName(trim(name + "#" + samples++));
        s.setData(bytes);
        s.setSampleRate(rate);
        s.setOriginalPitch(root);
        s.setSampleType(MONO);
        if (loopEnd > loopStart) {
            s.setStartLoop(loopStart);
            s.setEndLoop(loopEnd);
        } else {
            // SF2 wants loop points inside the sample even when it is not looped.
            s.setStartLoop(0);
            s.setEndLoop(Math.max(0, data.length - 1));
        }
        bank.addResource(s);
        return s;
    }

    /** One zone of an instrument: a sample over a key and velocity range, with its generators. */
    static final class Zone {
        final SF2Sample sample;
        final int keyLo;
        final int keyHi;
        final int velLo;
        final int velHi;
        final List<int[]> generators = new ArrayList<>();

        Zone(SF2Sample sample, int keyLo, int keyHi, int velLo, int velHi) {
            this.sample = sample;
            this.keyLo = keyLo;
            this.keyHi = keyHi;
            this.velLo = velLo;
            this.velHi = velHi;
        }

        /** Sets SF2 generator {@code generator} (an {@link SF2Region} constant) to {@code value}. */
        Zone with(int generator, int value) {
            generators.add(new int[] {generator, value});
            return this;
        }

        /** Loops the sample while the key is held. */
        Zone looped() {
            return with(SF2Region.GENERATOR_SAMPLEMODES, 1);
        }

        /** Volume envelope times in seconds (SF2 timecents) and sustain attenuation in dB. */
        Zone envelope(double attack, double decay, double sustainDb, double release) {
            return with(SF2Region.GENERATOR_ATTACKVOLENV, timecents(attack))
                    .with(SF2Region.GENERATOR_DECAYVOLENV, timecents(decay))
                    .with(SF2Region.GENERATOR_SUSTAINVOLENV, (int) Math.round(Math.max(0, sustainDb) * 10))
                    .with(SF2Region.GENERATOR_RELEASEVOLENV, timecents(release));
        }
    }

    /** Adds an instrument (an SF2 preset) of {@code zones} answering to {@code program} (a kit when {@code drums}). */
    void instrument(String name, int program, boolean drums, List<Zone> zones) {
        SF2Layer layer = new SF2Layer(bank);
        layer.setName(trim(name));
        for (Zone z : zones) {
            SF2LayerRegion region = new SF2LayerRegion();
            region.setSample(z.sample);
            region.putBytes(SF2Region.GENERATOR_KEYRANGE, new byte[] {(byte) z.keyLo, (byte) z.keyHi});
            region.putBytes(SF2Region.GENERATOR_VELRANGE, new byte[] {(byte) z.velLo, (byte) z.velHi});
            for (int[] g : z.generators) {
                region.putInteger(g[0], g[1]);
            }
            layer.getRegions().add(region);
        }
        bank.addResource(layer);
        SF2Instrument preset = new SF2Instrument(bank);
        preset.setName(trim(name));
        preset.setPatch(new ModelPatch(0, program, drums));
        SF2InstrumentRegion region = new SF2InstrumentRegion();
        region.setLayer(layer);
        preset.getRegions().add(region);
        bank.addInstrument(preset);
    }

    /** Writes the bank to {@code file}, which appears complete or not at all. */
    void save(Path file) {
        try {
            Files.createDirectories(file.getParent());
            Path part =
                    Files.createTempFile(file.getParent(), file.getFileName().toString(), ".part");
            try {
                bank.save(part.toFile());
                // Readable by the service's other users, like any installed SoundFont.
                Files.setPosixFilePermissions(part, PosixFilePermissions.fromString("rw-r--r--"));
                Files.move(part, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(part);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** SF2 time in timecents: 1200 log2(seconds); the shortest SF2 time for 0. */
    static int timecents(double seconds) {
        return seconds <= 0.001 ? -12000 : (int) Math.round(1200 * Math.log(seconds) / Math.log(2));
    }

    private static String trim(String name) {
        return name.length() > 19 ? name.substring(0, 19) : name;
    }
}
