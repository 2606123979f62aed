package dev.scorecast.engine.music;

import dev.scorecast.engine.plan.Section;
import java.util.ArrayList;
import java.util.List;

/**
 * One section's time grid and harmony: 16th-note steps from its first downbeat, and the chord
 * sounding at each step (the progression cycled one chord per bar, or as the genre's harmonic
 * rhythm says; in the final section the last two bars are the cadence). Step 0 is the section's
 * start exactly, so downbeat accents land on the sample the sync report measures.
 */
final class Bars {
    final Section section;
    final boolean last;
    final int bars;
    final int stepsPerBar;
    final double stepSec;
    final int tonic;
    final int[] scale;
    final String mode;
    private final Chord[] chords;
    private final Chord after;

    Bars(Section section, boolean last, double chordsPerBar, String preCadence, Chord nextSectionFirst) {
        this.section = section;
        this.last = last;
        this.bars = Math.max(1, section.bars());
        this.stepsPerBar = section.beatsPerBar() * 4;
        this.stepSec = 60.0 / section.tempo() / 4;
        this.tonic = Chord.tonic(section.key());
        this.scale = Chord.scale(section.mode());
        this.mode = section.mode();
        List<String> progression =
                section.progression().isEmpty() ? List.of(Chord.tonicSymbol(mode)) : section.progression();
        Chord[] parsed = progression.stream()
                .map(s -> Chord.parse(s, section.key(), mode))
                .toArray(Chord[]::new);
        chords = new Chord[bars * stepsPerBar];
        for (int step = 0; step < chords.length; step++) {
            int slot = (int) Math.floor(step * chordsPerBar / stepsPerBar + 1e-9);
            chords[step] = parsed[slot % parsed.length];
        }
        if (last) {
            Chord tonicChord = Chord.parse(Chord.tonicSymbol(mode), section.key(), mode);
            Chord pre = Chord.parse(preCadence, section.key(), mode);
            for (int step = 0; step < chords.length; step++) {
                int bar = step / stepsPerBar;
                if (bar == bars - 1) {
                    chords[step] = tonicChord;
                } else if (bar == bars - 2) {
                    chords[step] = pre;
                }
            }
        }
        this.after = nextSectionFirst == null ? chords[0] : nextSectionFirst;
    }

    /** The first chord of this section (for the approach notes of the section before). */
    Chord first() {
        return chords[0];
    }

    int totalSteps() {
        return chords.length;
    }

    /** Seconds of global step {@code step} (0 = the section's start, exactly). */
    /** The grid step sounding at {@code seconds} (the one that starts at or before it). */
    int stepAt(double seconds) {
        return Math.max(0, (int) Math.floor((seconds - section.start()) / stepSec + 1e-6));
    }

    /** The section's struck accents (cuts inside it that the band hits together). */
    List<Double> struckAccents() {
        return section.accents().stream()
                .filter(Composer::strikes)
                .map(Section.Hit::time)
                .toList();
    }

    double time(int step) {
        return step == 0 ? section.start() : section.start() + step * stepSec;
    }

    double time(int bar, int step) {
        return time(bar * stepsPerBar + step);
    }

    Chord chord(int step) {
        return chords[Math.min(Math.max(step, 0), chords.length - 1)];
    }

    /** The next chord different from the one at {@code step} (the next section's first at the end). */
    Chord nextChord(int step) {
        Chord now = chord(step);
        for (int s = step + 1; s < chords.length; s++) {
            if (chords[s] != now) {
                return chords[s];
            }
        }
        return after;
    }

    /** Steps from {@code step} until the chord changes (or the section ends). */
    int stepsToChange(int step) {
        Chord now = chord(step);
        int s = step + 1;
        while (s < chords.length && chords[s] == now) {
            s++;
        }
        return s - step;
    }

    /** Delay of a step under swing: every second 16th moves by {@code swing} of a 16th. */
    double swing(int step, double swing) {
        return (step % 2 == 1) ? swing * stepSec : 0;
    }

    /** MIDI pitch of scale degree {@code degree} (0 = the tonic in MIDI octave -1). */
    int degreePitch(int degree) {
        return tonic + 12 * Math.floorDiv(degree, 7) + scale[Math.floorMod(degree, 7)];
    }

    /** The scale degree whose pitch is nearest {@code pitch} (lower on a tie). */
    int nearestDegree(int pitch) {
        int best = 0;
        int bestDistance = Integer.MAX_VALUE;
        int start = (pitch / 12 - 1) * 7;
        for (int d = start; d < start + 21; d++) {
            int distance = Math.abs(degreePitch(d) - pitch);
            if (distance < bestDistance) {
                best = d;
                bestDistance = distance;
            }
        }
        return best;
    }

    /** True when {@code pitch} belongs to the section's scale. */
    boolean inScale(int pitch) {
        int pc = Math.floorMod(pitch - tonic, 12);
        for (int s : scale) {
            if (s == pc) {
                return true;
            }
        }
        return false;
    }

    /** One rhythm event of a pattern string: an onset at {@code step} lasting {@code length} steps. */
    record Event(int step, int length, char symbol) {}

    /**
     * The events of one bar of a pattern string: any character but '.' and '-' starts an event,
     * '-' holds it, '.' rests. A pattern of 32 characters spans two bars, and so on.
     */
    List<Event> events(String pattern, int bar) {
        ArrayList<Event> events = new ArrayList<>();
        if (pattern == null || pattern.isEmpty()) {
            return events;
        }
        int span = Math.max(1, pattern.length() / 16);
        int offset = 16 * (bar % span);
        int start = -1;
        char symbol = 0;
        for (int step = 0; step <= stepsPerBar; step++) {
            char c = step == stepsPerBar ? '.' : pattern.charAt((offset + step % 16) % pattern.length());
            if (c == '-' && start >= 0) {
                continue;
            }
            if (start >= 0) {
                events.add(new Event(start, step - start, symbol));
                start = -1;
            }
            if (c != '.' && c != '-') {
                start = step;
                symbol = c;
            }
        }
        return events;
    }
}
