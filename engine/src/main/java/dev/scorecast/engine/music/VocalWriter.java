package dev.scorecast.engine.music;

import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.voice.singing.SungNote;
import dev.scorecast.engine.voice.singing.Syllabifier;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The sung line of one section: its lyrics, one line per equal stretch of bars, one syllable per
 * note. A line starts on its stretch's downbeat, moves in eighths (sixteenths when the words are
 * many), ends on a long note on a tone of the chord sounding there, reached by a melisma (the last
 * syllable turns from a step above) when there is room, and leaves at least a beat of rest for a
 * breath. The contour arches: odd lines rise like a question, even lines fall back like
 * an answer. A line that would overlap speech (the video's dialogue or the voiceover) is not
 * sung: the singer rests under words and comes back with the next line after them.
 */
final class VocalWriter {
    /** The singer's register: a comfortable tenor-to-alto octave and a half. */
    static final int LOW = 55;

    static final int HIGH = 74;
    private static final int VELOCITY = 100;
    /** A line's last syllable sings two notes (a melisma) when it has at least this many steps. */
    private static final int MELISMA_MIN_STEPS = 6;
    /** Speech this close to a line counts as overlapping it. */
    private static final double SPEECH_MARGIN_SECONDS = 0.25;

    private VocalWriter() {}

    /** The section's sung notes, in time order; empty when it has no lyrics. */
    static List<SungNote> write(Bars bars, String lyrics, SplittableRandom rng, List<Span> speech) {
        List<List<String>> lines = lines(lyrics);
        if (lines.isEmpty()) {
            return List.of();
        }
        int count = Math.min(lines.size(), bars.bars);
        int stepsPerLine = bars.bars / count * bars.stepsPerBar;
        int rest = Math.max(2, bars.stepsPerBar / 4);
        List<SungNote> out = new ArrayList<>();
        for (int line = 0; line < count; line++) {
            int from = line * stepsPerLine;
            int available = stepsPerLine - rest;
            List<String> syllables = fit(lines.get(line), available);
            int unit = syllables.size() * 2 + 2 <= available ? 2 : 1;
            double start = bars.time(from);
            double end = bars.time(from + available);
            if (overlaps(speech, start, end)) {
                continue;
            }
            int[] pitches = contour(bars, from, unit, syllables.size(), available, line % 2 == 0, rng);
            for (int i = 0; i < syllables.size(); i++) {
                int step = from + i * unit;
                boolean last = i == syllables.size() - 1;
                int length = last ? available - i * unit : unit;
                double t = bars.time(step);
                if (last && length >= MELISMA_MIN_STEPS) {
                    // The line's last syllable turns: a short note a scale step above, then down onto the long note.
                    int turn = bars.degreePitch(bars.nearestDegree(pitches[i]) + 1);
                    double turnEnd = bars.time(step + unit);
                    out.add(SungNote.sung(t, turnEnd - t, clampToRegister(turn), VELOCITY, syllables.get(i)));
                    out.add(SungNote.melisma(turnEnd, bars.time(step + length) - turnEnd, pitches[i], VELOCITY));
                    continue;
                }
                double seconds = bars.time(step + length) - t;
                out.add(SungNote.sung(t, seconds * (last ? 1 : 0.95), pitches[i], VELOCITY, syllables.get(i)));
            }
        }
        return out;
    }

    private static List<List<String>> lines(String lyrics) {
        if (lyrics == null) {
            return List.of();
        }
        List<List<String>> lines = new ArrayList<>();
        for (String line : lyrics.split("\n")) {
            List<String> syllables = Syllabifier.syllables(line);
            if (!syllables.isEmpty()) {
                lines.add(syllables);
            }
        }
        return lines;
    }

    /** The line's syllables that fit in {@code steps} (a sixteenth each at most, a long last note kept). */
    private static List<String> fit(List<String> syllables, int steps) {
        int room = Math.max(1, steps - 2);
        if (syllables.size() <= room) {
            return syllables;
        }
        List<String> kept = new ArrayList<>(syllables.subList(0, room));
        // A cut word must not hang on a hyphen into a syllable that is not sung.
        String last = kept.getLast();
        if (last.endsWith("-")) {
            kept.set(kept.size() - 1, last.substring(0, last.length() - 1));
        }
        return kept;
    }

    /**
     * Pitches of a line: from a chord tone near the middle of the register, an arch of scale steps
     * (up two or three degrees and back, or down), the last note on the nearest tone of its chord.
     */
    private static int[] contour(
            Bars bars, int from, int unit, int n, int available, boolean rising, SplittableRandom rng) {
        int[] pitches = new int[n];
        int middle = (LOW + HIGH) / 2;
        int startDegree = bars.nearestDegree(chordTone(bars.chord(from), middle));
        int lastStep = from + (n - 1) * unit;
        int endPitch = chordTone(bars.chord(lastStep), rising ? middle + 3 : middle - 2);
        int endDegree = bars.nearestDegree(endPitch);
        int peak = rising ? 3 : 2;
        for (int i = 0; i < n; i++) {
            double x = n == 1 ? 1 : i / (double) (n - 1);
            double arch = Math.sin(Math.PI * x) * peak * (rising ? 1 : -0.5);
            int degree = (int) Math.round(startDegree + (endDegree - startDegree) * x + arch);
            if (i > 0 && i < n - 1 && rng.nextDouble() < 0.2) {
                degree += rng.nextBoolean() ? 1 : -1;
            }
            int pitch = bars.degreePitch(degree);
            int step = from + i * unit;
            if (step % (bars.stepsPerBar / 2) == 0) {
                pitch = chordTone(bars.chord(step), pitch); // strong beats sit on the harmony
            }
            pitches[i] = clampToRegister(pitch);
        }
        pitches[n - 1] = clampToRegister(endPitch);
        return pitches;
    }

    /** The tone of {@code chord} nearest {@code near}. */
    private static int chordTone(Chord chord, int near) {
        int best = near;
        int distance = Integer.MAX_VALUE;
        for (int pc : chord.pitchClasses()) {
            for (int octave = -1; octave <= 1; octave++) {
                int candidate = near + Math.floorMod(pc - near, 12) + 12 * octave;
                if (Math.abs(candidate - near) < distance) {
                    distance = Math.abs(candidate - near);
                    best = candidate;
                }
            }
        }
        return best;
    }

    private static int clampToRegister(int pitch) {
        while (pitch < LOW) {
            pitch += 12;
        }
        while (pitch > HIGH) {
            pitch -= 12;
        }
        return pitch;
    }

    static boolean overlaps(List<Span> speech, double start, double end) {
        for (Span s : speech) {
            if (s.start() < end + SPEECH_MARGIN_SECONDS && s.end() > start - SPEECH_MARGIN_SECONDS) {
                return true;
            }
        }
        return false;
    }
}
