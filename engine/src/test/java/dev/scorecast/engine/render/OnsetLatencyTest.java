package dev.scorecast.engine.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.Commands;
import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.instruments.BankCatalog;
import dev.scorecast.engine.music.Note;
import dev.scorecast.engine.music.Part;
import dev.scorecast.engine.music.Score;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Notes are started as much early as their instrument takes to speak, so a slow-bowed string chord
 * written on a cut is heard on the cut: checked with an onset detector we did not write (aubio).
 */
class OnsetLatencyTest {
    private static final int RATE = SynthDriver.RATE;
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
    void aToneIsHeardWhereItStartsAndSilenceNowhere() {
        float[][] block = new float[2][RATE / 4];
        for (int i = RATE / 50; i < block[0].length; i++) {
            block[0][i] = block[1][i] = (float) (0.3 * Math.sin(2 * Math.PI * 440 * i / RATE));
        }
        assertEquals(0.020, OnsetLatency.heardAt(block, block[0].length), 0.0021);
        assertEquals(0, OnsetLatency.heardAt(new float[2][RATE / 4], RATE / 4));
    }

    @Test
    void aSwellIsStartedNoMoreThanTheCapEarly() {
        float[][] block = new float[2][RATE / 4];
        for (int i = 0; i < block[0].length; i++) {
            double ramp = (double) i / block[0].length;
            block[0][i] = block[1][i] = (float) (ramp * ramp * Math.sin(2 * Math.PI * 440 * i / RATE));
        }
        assertEquals(OnsetLatency.MAX_SECONDS, OnsetLatency.heardAt(block, block[0].length));
    }

    @Test
    void aStringChordWrittenOnACutIsHeardOnIt(@TempDir Path dir) {
        int strings = BankCatalog.address("musescore", 48);
        double latency = bank.onsets().seconds(strings, false, 62);
        // MuseScore's string section bows in: without the early start it would be heard this late.
        assertTrue(latency > 0.010, "string section latency " + latency);
        assertTrue(
                bank.onsets().seconds(BankCatalog.address("musescore", 47), false, 46) < 0.008,
                "timpani speak at once");

        List<Note> chord = new ArrayList<>();
        for (double cut : new double[] {1.0, 2.5}) {
            for (int pitch : new int[] {50, 57, 62, 66}) {
                chord.add(new Note(cut, 1.0, pitch, 100));
            }
        }
        Part part = new Part(InstrumentGroup.HARMONY, strings, false, 0, 0, chord, List.of());
        Score score = new Score(4, List.of(new Score.TempoChange(0, 120, "4/4")), List.of(part), List.of());
        Stem stem = new Renderer(bank).render(score, dir, f -> {}).getFirst();
        List<Double> heard = Commands.aubioOnsets(stem.wav(), "hfc");
        for (double cut : new double[] {1.0, 2.5}) {
            double nearest = heard.stream()
                    .min((a, b) -> Double.compare(Math.abs(a - cut), Math.abs(b - cut)))
                    .orElseThrow();
            System.out.printf(
                    "string chord on %.1f s heard by aubio at %+.1f ms (latency %.1f ms)%n",
                    cut, 1000 * (nearest - cut), 1000 * latency);
            assertEquals(cut, nearest, 0.008, "aubio hears the chord at " + nearest + " s: " + heard);
        }
    }

    @Test
    void aProgramChangeMovesWithTheFirstNoteItApplies() {
        int strings = BankCatalog.address("musescore", 48);
        int piano = BankCatalog.address("musescore", 0);
        Part part = new Part(
                InstrumentGroup.HARMONY,
                piano,
                false,
                0,
                0,
                List.of(new Note(0.5, 0.5, 60, 90), new Note(2.0, 1.0, 62, 90)),
                List.of(new Part.ProgramChange(2.0, strings)));
        Part aligned = bank.onsets().aligned(part);
        double stringsEarly = bank.onsets().seconds(strings, false, 62);
        assertEquals(2.0 - stringsEarly, aligned.notes().get(1).start(), 1e-9);
        assertEquals(
                aligned.notes().get(1).start(),
                aligned.programChanges().getFirst().time(),
                1e-9,
                "the change comes with its note");
        assertEquals(1.0, aligned.notes().get(1).duration(), 1e-9, "lengths are kept");
    }
}
