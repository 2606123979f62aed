package dev.scorecast.engine.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.media.sound.ModelPerformer;
import com.sun.media.sound.SoftSynthesizer;
import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.dsp.RealFft;
import dev.scorecast.engine.instruments.BankCatalog;
import dev.scorecast.engine.io.WavFiles;
import dev.scorecast.engine.music.Note;
import dev.scorecast.engine.music.Part;
import dev.scorecast.engine.music.Score;
import dev.scorecast.engine.style.Arrangement;
import dev.scorecast.engine.style.Genre;
import dev.scorecast.engine.style.GenreCatalog;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import javax.sound.midi.Receiver;
import javax.sound.midi.ShortMessage;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The instrument sources (docs/SOUND.md): every sound the style data names is a real instrument of
 * its own bank (no fallback to another program or to GM), every drum key a genre's patterns play is
 * in its kit, the piano's dynamics are timbre, and a house kit is bright like produced dance music.
 * Needs the installed sources (bin/test installs them: ensure_instruments).
 */
class InstrumentSourcesTest {
    private static SoundBank bank;

    @BeforeAll
    static void open() {
        bank = SoundBank.load(Path.of("/usr/share/sounds/sf2/FluidR3_GM.sf2"));
    }

    @AfterAll
    static void close() {
        bank.close();
    }

    @Test
    void everyMappedSoundIsItsOwnInstrumentAndEveryPlayedDrumKeyIsInItsKit() throws Exception {
        int checked = 0;
        for (Genre genre : GenreCatalog.builtIn().all()) {
            TreeSet<Integer> drumKeys = drumKeys(genre.id());
            for (Map.Entry<String, Arrangement.GroupStyle> group :
                    genre.arrangement().groups().entrySet()) {
                if (group.getKey().equals("vocals")) {
                    continue; // sung by the singer, not the synthesizer
                }
                boolean drums = group.getKey().equals("beats");
                for (Arrangement.Sound sound : group.getValue().palette()) {
                    SoundBank.Resolved r = bank.instrument(sound.program(), drums);
                    String what = genre.id() + " " + group.getKey() + " " + sound.name() + " (" + sound.program() + ")";
                    assertEquals(sound.program(), r.program(), what + " fell back to another program");
                    assertTrue(r.instrument().getPerformers().length > 0, what + " has no zones");
                    if (drums) {
                        for (int key : drumKeys) {
                            assertTrue(
                                    covers(r.instrument().getPerformers(), key),
                                    what + " has no drum on key " + key + ", which the " + genre.id()
                                            + " patterns play");
                        }
                    }
                    checked++;
                }
            }
        }
        assertTrue(checked > 60, "checked " + checked);
    }

    @Test
    void pianoDynamicsAreTimbre() throws Exception {
        int piano = BankCatalog.address("salamander", 0);
        double soft = centroid(note(piano, 60, 40));
        double loud = centroid(note(piano, 60, 110));
        // Real velocity layers: the hard hammer's spectrum is brighter, not only louder.
        assertTrue(loud > soft * 1.15, "centroid at velocity 40: " + soft + " Hz, at 110: " + loud + " Hz");
    }

    @Test
    void analogVoicesOpenTheirFilterWithVelocity() throws Exception {
        int bass = BankCatalog.address("analog", 1);
        double soft = centroid(note(bass, 40, 50));
        double loud = centroid(note(bass, 40, 120));
        assertTrue(loud > soft * 1.15, "saw bass centroid at velocity 50: " + soft + " Hz, at 120: " + loud + " Hz");
    }

    /** House at its busiest level, eight bars: 6-12 kHz between -24 and -12 dB of the total, as in produced dance music (issue 14). */
    @Test
    void houseDrumsHaveTheAirOfProducedDanceMusic(@TempDir Path dir) throws Exception {
        Genre house = GenreCatalog.builtIn().find("house").orElseThrow();
        int kit = house.arrangement().groups().get("beats").palette().getFirst().program();
        JsonNode pattern = pattern("house").path("groups").path("beats");
        JsonNode grid = pattern.path("levels").get(3).path("grid");
        int velocity = pattern.path("velocity").asInt(110);
        double bpm = 124;
        double step = 60 / bpm / 4;
        List<Note> notes = new ArrayList<>();
        for (int bar = 0; bar < 8; bar++) {
            for (var e : grid.properties()) {
                String steps = e.getValue().asText();
                for (int s = 0; s < steps.length(); s++) {
                    char c = steps.charAt(s);
                    if (Character.isDigit(c) && c != '0') {
                        notes.add(new Note(
                                (bar * 16 + s) * step,
                                step,
                                Integer.parseInt(e.getKey()),
                                Math.max(1, Math.min(127, velocity * (c - '0') / 9))));
                    }
                }
            }
        }
        double seconds = 8 * 16 * step + 1;
        Score score = new Score(
                seconds,
                List.of(new Score.TempoChange(0, bpm, "4/4")),
                List.of(new Part(InstrumentGroup.BEATS, kit, true, 0, 0, notes, List.of())),
                List.of());
        List<Stem> stems = new Renderer(bank).render(score, dir, null);
        float[][] audio = WavFiles.readAll(stems.getFirst().wav());
        double[] bands = bandShares(audio[0], 48_000, new double[][] {{6000, 12000}, {0, 120}});
        double air = 10 * Math.log10(bands[0]);
        assertTrue(air >= -24 && air <= -12, "house drums 6-12 kHz at " + air + " dB of the total");
    }

    static TreeSet<Integer> drumKeys(String genre) throws Exception {
        TreeSet<Integer> keys = new TreeSet<>();
        collect(pattern(genre).path("groups").path("beats"), keys);
        return keys;
    }

    private static void collect(JsonNode node, TreeSet<Integer> keys) {
        if (node.isObject()) {
            for (var e : node.properties()) {
                if ((e.getKey().equals("grid") || e.getKey().equals("fill"))
                        && e.getValue().isObject()) {
                    e.getValue().properties().forEach(k -> keys.add(Integer.parseInt(k.getKey())));
                } else {
                    collect(e.getValue(), keys);
                }
            }
        } else if (node.isArray()) {
            node.forEach(n -> collect(n, keys));
        }
    }

    private static JsonNode pattern(String genre) throws Exception {
        try (InputStream in = InstrumentSourcesTest.class.getResourceAsStream("/styles/patterns/" + genre + ".json")) {
            return new ObjectMapper().readTree(in);
        }
    }

    private static boolean covers(ModelPerformer[] performers, int key) {
        for (ModelPerformer p : performers) {
            if (p.getKeyFrom() <= key && key <= p.getKeyTo()) {
                return true;
            }
        }
        return false;
    }

    /** One second of {@code key} at {@code velocity} on the instrument at {@code address}, mono. */
    static float[] note(int address, int key, int velocity) throws Exception {
        SoftSynthesizer synth = new SoftSynthesizer();
        AudioFormat format = new AudioFormat(AudioFormat.Encoding.PCM_FLOAT, 48_000, 32, 2, 8, 48_000, false);
        try (AudioInputStream stream = synth.openStream(
                format,
                Map.of(
                        "load default soundbank",
                        false,
                        "auto gain control",
                        false,
                        "reverb",
                        false,
                        "chorus",
                        false))) {
            SoundBank.Resolved r = bank.instrument(address, false);
            synth.loadInstrument(r.instrument());
            Receiver rx = synth.getReceiver();
            rx.send(new ShortMessage(ShortMessage.CONTROL_CHANGE, 0, 0, SoundBank.bankOf(address)), -1);
            rx.send(new ShortMessage(ShortMessage.PROGRAM_CHANGE, 0, SoundBank.programOf(address), 0), -1);
            rx.send(new ShortMessage(ShortMessage.NOTE_ON, 0, key, velocity), -1);
            byte[] bytes = stream.readNBytes(48_000 * 8);
            var floats = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
            float[] mono = new float[bytes.length / 8];
            for (int i = 0; i < mono.length; i++) {
                mono[i] = 0.5f * (floats.get(2 * i) + floats.get(2 * i + 1));
            }
            return mono;
        } finally {
            synth.close();
        }
    }

    /** Spectral centroid of the first 0.68 s: the magnitude-weighted mean frequency (librosa's definition). */
    static double centroid(float[] x) {
        int n = 32768;
        double[] frame = new double[n];
        for (int i = 0; i < n && i < x.length; i++) {
            frame[i] = x[i] * (0.5 - 0.5 * Math.cos(2 * Math.PI * i / n));
        }
        double[] magnitude = new double[n / 2 + 1];
        new RealFft(n).magnitudes(frame, magnitude);
        double sum = 0, weighted = 0;
        for (int k = 1; k < n / 2; k++) {
            double m = magnitude[k];
            sum += m;
            weighted += m * k * 48_000.0 / n;
        }
        assertTrue(sum > 0, "silent note");
        return weighted / sum;
    }

    /** The share of total power in each band, over 8192-sample Hann frames. */
    static double[] bandShares(float[] x, int rate, double[][] bands) {
        int n = 8192;
        RealFft fft = new RealFft(n);
        double[] frame = new double[n];
        double[] magnitude = new double[n / 2 + 1];
        double total = 0;
        double[] in = new double[bands.length];
        for (int start = 0; start + n <= x.length; start += n / 2) {
            for (int i = 0; i < n; i++) {
                frame[i] = x[start + i] * (0.5 - 0.5 * Math.cos(2 * Math.PI * i / n));
            }
            fft.magnitudes(frame, magnitude);
            for (int k = 1; k < n / 2; k++) {
                double f = k * (double) rate / n;
                double p = magnitude[k] * magnitude[k];
                total += p;
                for (int b = 0; b < bands.length; b++) {
                    if (f >= bands[b][0] && f < bands[b][1]) {
                        in[b] += p;
                    }
                }
            }
        }
        for (int b = 0; b < bands.length; b++) {
            in[b] /= total;
        }
        return in;
    }
}
