package dev.scorecast.engine.music;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.io.WavFiles;
import dev.scorecast.engine.render.Renderer;
import dev.scorecast.engine.render.SoundBank;
import dev.scorecast.engine.render.Stem;
import dev.scorecast.engine.voice.PitchFrame;
import dev.scorecast.engine.voice.Yin;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26, legato transitions: a slurred line passes from note to note without a new attack
 * (measured on Gervill's render of a flute line), keeps its pitches, and is struck again after a
 * breath or on a hit.
 */
class LegatoTest {
    private static final Path TIM = Path.of("/usr/share/sounds/sf2/TimGM6mb.sf2");
    private static final int[] LINE = {72, 74, 76, 77, 79, 77, 76, 74};
    private static final double STEP = 0.5;

    private static List<Note> line() {
        List<Note> notes = new ArrayList<>();
        for (int i = 0; i < LINE.length; i++) {
            notes.add(new Note(i * STEP, STEP * 0.88, LINE[i], 90));
        }
        return notes;
    }

    @Test
    void connectedNotesOverlapTheNextWhileABreathAndAHitAreStruck() {
        List<Note> notes = new ArrayList<>(line());
        notes.add(new Note(4.5, 0.4, 72, 90)); // after a breath of 0.44 s
        List<Note> slurred = Legato.slurred(notes, List.of(new Legato.Span(0, 6, 10)), List.of(2.0));
        for (int i = 0; i < 7; i++) {
            Note n = slurred.get(i);
            double next = slurred.get(i + 1).start();
            if (i == 3) {
                assertTrue(n.end() < next, "the note before the hit at 2.0 s is not slurred into it");
            } else {
                assertEquals(next + Legato.OVERLAP_SECONDS, n.end(), 1e-9, "note " + i + " held into the next");
            }
        }
        assertTrue(slurred.get(7).end() < 4.5, "a breath is not slurred over");
        assertEquals(
                notes.stream().map(Note::take).toList(),
                slurred.stream().map(Note::take).toList());
        List<Note> byBeat = Legato.slurred(line(), List.of(new Legato.Span(0, 6, 1.0)), List.of());
        assertTrue(byBeat.get(0).end() > byBeat.get(1).start(), "within a beat: slurred");
        assertTrue(byBeat.get(1).end() < byBeat.get(2).start(), "a note on the beat is struck");
        List<Part.Control> framed =
                Legato.framed(List.of(new Part.Control(1.0, 11, 100)), List.of(new Legato.Span(0, 6, 10)));
        assertEquals(
                List.of(5, 65, 126, 11, 65, 127),
                framed.stream().map(Part.Control::controller).toList());
    }

    @Test
    void aSlurredFluteLineHasOneAttackAndKeepsItsPitches(@TempDir Path dir) {
        List<Legato.Span> spans = List.of(new Legato.Span(0, LINE.length * STEP, 100)); // one slur over the whole line
        double[] detached = boundaryDips(render(line(), List.of(), dir.resolve("detached")));
        float[] slurredPcm = render(
                Legato.slurred(line(), spans, List.of()), Legato.framed(List.of(), spans), dir.resolve("slurred"));
        double[] slurred = boundaryDips(slurredPcm);
        System.out.printf(
                "level dip at each note change (dB under the notes): detached %s, slurred %s%n",
                Arrays.toString(round(detached)), Arrays.toString(round(slurred)));
        for (int k = 0; k < slurred.length; k++) {
            assertTrue(detached[k] > 8, "a detached note ends before the next: dip " + detached[k]);
            assertTrue(slurred[k] < 5, "a slurred note passes into the next: dip " + slurred[k]);
        }
        List<PitchFrame> pitch = Yin.track(slurredPcm, Renderer.RATE);
        for (int i = 0; i < LINE.length; i++) {
            double mid = i * STEP + STEP / 2;
            double expected = 440 * Math.pow(2, (LINE[i] - 69) / 12.0);
            PitchFrame f = pitch.stream()
                    .filter(p -> p.voiced() && Math.abs(p.timeSeconds() - mid) < 0.05)
                    .findFirst()
                    .orElseThrow();
            assertEquals(0, f.centsFrom(expected), 50, "note " + i + " sounds at its pitch");
        }
    }

    private static float[] render(List<Note> notes, List<Part.Control> controls, Path dir) {
        Part flute = new Part(InstrumentGroup.MELODY, 73, false, 0, 0, notes, List.of(), controls);
        Score score = new Score(
                LINE.length * STEP + 1, List.of(new Score.TempoChange(0, 120, "4/4")), List.of(flute), List.of());
        try (SoundBank bank = SoundBank.load(TIM)) {
            Stem stem = new Renderer(bank).render(score, dir, f -> {}).getFirst();
            return WavFiles.readAll(stem.wav())[0];
        }
    }

    /** At each note change, how far the level (10 ms RMS) falls under the level of the notes either side, in dB. */
    private static double[] boundaryDips(float[] pcm) {
        double[] dips = new double[LINE.length - 1];
        for (int k = 1; k < LINE.length; k++) {
            double t = k * STEP;
            double around = Math.min(rmsDb(pcm, t - 0.2, t - 0.1), rmsDb(pcm, t + 0.1, t + 0.2));
            double lowest = Double.MAX_VALUE;
            for (double w = t - 0.08; w < t + 0.04; w += 0.005) {
                lowest = Math.min(lowest, rmsDb(pcm, w, w + 0.01));
            }
            dips[k - 1] = around - lowest;
        }
        return dips;
    }

    private static double rmsDb(float[] pcm, double from, double to) {
        int a = (int) (from * Renderer.RATE);
        int b = (int) (to * Renderer.RATE);
        double sum = 0;
        for (int i = a; i < b; i++) {
            sum += pcm[i] * pcm[i];
        }
        return 10 * Math.log10(sum / (b - a) + 1e-12);
    }

    private static double[] round(double[] x) {
        return Arrays.stream(x).map(v -> Math.round(v * 10) / 10.0).toArray();
    }
}
