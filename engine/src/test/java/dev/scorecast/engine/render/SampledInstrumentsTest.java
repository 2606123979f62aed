package dev.scorecast.engine.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.instruments.BankCatalog;
import dev.scorecast.engine.io.WavFiles;
import dev.scorecast.engine.music.Note;
import dev.scorecast.engine.music.Part;
import dev.scorecast.engine.music.Score;
import dev.scorecast.engine.sampler.SampledBanks;
import dev.scorecast.engine.sampler.SampledInstrument;
import dev.scorecast.engine.sampler.Sampler;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The instruments that moved to Scorecast's sampler (instruments/sampler.json), rendered by the
 * {@link Renderer} as a score plays them: the Salamander piano and the electronic kits. Repeated
 * notes and hits are other takes, the piano is stereo with release samples, the kits use both their
 * layers, and levels stay where Gervill had them. Needs the installed sources (ensure_instruments).
 */
class SampledInstrumentsTest {
    private static final int RATE = Renderer.RATE;
    private static final int PIANO = BankCatalog.address("salamander", 0);
    private static SoundBank bank;

    @TempDir
    Path dir;

    @BeforeAll
    static void open() {
        bank = SoundBank.load(Path.of("/usr/share/sounds/sf2/FluidR3_GM.sf2"));
    }

    @AfterAll
    static void close() {
        bank.useSampler(true);
        bank.close();
    }

    private float[][] render(Part part, double seconds, boolean sampler) throws Exception {
        bank.useSampler(sampler);
        try {
            Path out = dir.resolve(sampler ? "on" : "off");
            List<Stem> stems =
                    new Renderer(bank).render(new Score(seconds, List.of(), List.of(part), List.of()), out, f -> {});
            return WavFiles.readAll(stems.getFirst().wav());
        } finally {
            bank.useSampler(true);
        }
    }

    private static Part piano(List<Note> notes) {
        return new Part(InstrumentGroup.HARMONY, PIANO, false, 0, 0, notes, List.of());
    }

    private static Part kit(int program, List<Note> notes) {
        return new Part(
                InstrumentGroup.BEATS, BankCatalog.address("electronic", program), true, 0, 0, notes, List.of());
    }

    /** The largest difference between two stretches of {@code x}, each {@code len} frames from its start. */
    private static double difference(float[][] x, double a, double b, double len) {
        int ia = (int) Math.round(a * RATE);
        int ib = (int) Math.round(b * RATE);
        double d = 0;
        for (int c = 0; c < 2; c++) {
            for (int i = 0; i < len * RATE; i++) {
                d = Math.max(d, Math.abs(x[c][ia + i] - x[c][ib + i]));
            }
        }
        return d;
    }

    private static double peak(float[][] x, double from, double len) {
        double p = 0;
        for (int c = 0; c < 2; c++) {
            for (int i = (int) (from * RATE); i < (from + len) * RATE; i++) {
                p = Math.max(p, Math.abs(x[c][i]));
            }
        }
        return p;
    }

    private static double rmsDb(float[][] x, double from, double len) {
        double sum = 0;
        int n = 0;
        for (int c = 0; c < 2; c++) {
            for (int i = (int) (from * RATE); i < (from + len) * RATE; i++) {
                sum += x[c][i] * x[c][i];
                n++;
            }
        }
        return 10 * Math.log10(sum / n + 1e-30);
    }

    @Test
    void repeatedPianoNotesAreOtherTakesAndThePianoIsStereo() throws Exception {
        List<Note> notes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            notes.add(new Note(i * 1.0, 0.5, 60, 90));
            notes.add(new Note(i * 1.0 + 0.0, 0.5, 61, 90)); // a key between two sampled roots as well
        }
        float[][] x = render(piano(notes), 4.5, true);
        double level = peak(x, 0, 0.3);
        for (int i = 0; i < 3; i++) {
            double d = difference(x, i, i + 1, 0.3);
            assertTrue(
                    d > 0.05 * level,
                    "hit " + (i + 1) + " and " + (i + 2) + " are the same samples (difference " + d + ")");
        }
        double side = 0;
        for (int i = 0; i < RATE / 2; i++) {
            side = Math.max(side, Math.abs(x[0][i] - x[1][i]));
        }
        assertTrue(side > 0.1 * level, "the piano is mono: left and right differ by " + side);
    }

    @Test
    void theKeyOffPlaysSalamandersReleaseSample() throws Exception {
        // The piano as mapped, against the same mapping without its release group: what differs after the
        // key-off is the release (damper) sample, and it is heard (within 26 dB of the note it ends; measured 21 dB),
        // not before.
        String sfz = new String(
                BankCatalog.class
                        .getResourceAsStream("/instruments/sfz/salamander.sfz")
                        .readAllBytes(),
                StandardCharsets.UTF_8);
        var banks = SampledBanks.of(bank.banks());
        var full = banks.instrument(PIANO, false).orElseThrow();
        var dry = SampledInstrument.parse(
                "dry",
                sfz.substring(0, sfz.indexOf("<group> trigger=release")),
                bank.banks().dir(),
                banks.store());
        float[][] a = play(full);
        float[][] b = play(dry);
        double note = 0;
        double release = 0;
        double early = 0;
        for (int i = 0; i < RATE / 20; i++) {
            note = Math.max(note, Math.abs(a[0][RATE * 7 / 5 + i]));
            early = Math.max(early, Math.abs(a[0][RATE / 2 + i] - b[0][RATE / 2 + i]));
            // Within 50 ms of the key-off: the damper is heard when the key rises, not later.
            release = Math.max(release, Math.abs(a[0][RATE * 3 / 2 + i] - b[0][RATE * 3 / 2 + i]));
        }
        assertEquals(0, early, 0, "something differed before the key-off");
        assertTrue(
                release > note * 0.05,
                "the release sample is missing, late or inaudible: " + release + " under a note at " + note);
    }

    /** A C3 at velocity 100 held 1.5 s on a sampler alone. */
    private static float[][] play(SampledInstrument ins) {
        var s = new Sampler(32, true, 0);
        s.program(0, ins);
        s.noteOn(0, 48, 100, 0);
        s.noteOff(0, 48, RATE * 3 / 2);
        float[][] x = new float[2][RATE * 2];
        s.process(x, 0, RATE * 2);
        return x;
    }

    @Test
    void drumHitsAlternateTakesAndUseBothLayers() throws Exception {
        for (int program = 0; program <= 4; program++) {
            List<Note> notes = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                notes.add(new Note(i * 0.5, 0.1, 38, 110));
            }
            float[][] x = render(kit(program, notes), 2.5, true);
            double level = peak(x, 0, 0.2);
            for (int i = 0; i < 3; i++) {
                assertTrue(
                        difference(x, i * 0.5, i * 0.5 + 0.5, 0.2) > 1e-3 * level,
                        "kit " + program + ": snare hits " + (i + 1) + " and " + (i + 2) + " are the same samples");
            }
        }
        // The soft and the hard layer: a soft hit is another sample (or the hard one darker), not only quieter.
        List<Note> two = List.of(new Note(0, 0.1, 49, 60), new Note(1, 0.1, 49, 120));
        float[][] x = render(kit(0, two), 2, true);
        double soft = peak(x, 0, 0.3);
        double hard = peak(x, 1, 0.3);
        double quieter = Math.pow(60 / 120.0, 2);
        assertTrue(
                Math.abs(soft / hard - quieter) > 0.05 * quieter,
                "the soft crash is the hard one scaled: " + soft / hard);
    }

    @Test
    void levelsStayWhereGervillHadThem() throws Exception {
        Part pianoPart = piano(List.of(new Note(0.1, 1.5, 60, 90), new Note(0.1, 1.5, 64, 90), new Note(2, 1, 43, 60)));
        float[][] on = render(pianoPart, 3.5, true);
        float[][] off = render(pianoPart, 3.5, false);
        double dp = rmsDb(on, 0.1, 3) - rmsDb(off, 0.1, 3);
        List<Note> beat = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            beat.add(new Note(i * 0.25, 0.1, i % 2 == 0 ? 36 : 42, 100));
        }
        float[][] kon = render(kit(0, beat), 2.5, true);
        float[][] koff = render(kit(0, beat), 2.5, false);
        double dk = rmsDb(kon, 0, 2.5) - rmsDb(koff, 0, 2.5);
        System.out.printf("sampler minus Gervill: piano %.2f dB, house kit %.2f dB%n", dp, dk);
        assertEquals(0, dp, 1.5, "piano level moved by " + dp + " dB");
        assertEquals(0, dk, 1.5, "kit level moved by " + dk + " dB");
    }
}
