package dev.scorecast.engine.voice.singing;

import dev.scorecast.engine.voice.PitchFrame;
import java.util.List;

/**
 * The pitch a syllable is sung at, sample by sample from the syllable's first sample: each note's
 * own pitch, a 20 ms glide into a melisma note from the one before it, and vibrato on long notes
 * that starts after a short delay and fades in, as singers do.
 */
final class PitchCurve {

    /** Notes at least this long get vibrato. */
    static final double VIBRATO_MIN_SECONDS = 0.4;

    static final double VIBRATO_HZ = 5.5;
    static final double VIBRATO_CENTS = 35;
    private static final double VIBRATO_DELAY_SECONDS = 0.12;
    private static final double VIBRATO_FADE_SECONDS = 0.3;
    private static final double GLIDE_SECONDS = 0.02;

    /** One note of the syllable: its first sample and length, relative to the syllable's first sample. */
    record Segment(int from, int length, int midi) {}

    private final List<Segment> segments;
    private final int rate;

    PitchCurve(List<Segment> segments, int rate) {
        this.segments = List.copyOf(segments);
        this.rate = rate;
    }

    double hzAt(double sample) {
        int index = 0;
        while (index + 1 < segments.size() && sample >= segments.get(index + 1).from()) {
            index++;
        }
        Segment note = segments.get(index);
        double t = (sample - note.from()) / rate;
        double midi = note.midi();
        if (index > 0 && t < GLIDE_SECONDS) {
            double previous = segments.get(index - 1).midi();
            double x = Math.max(0, t) / GLIDE_SECONDS;
            midi = previous + (midi - previous) * (x * x * (3 - 2 * x));
        }
        double cents = note.length() >= VIBRATO_MIN_SECONDS * rate ? vibratoCents(t) : 0;
        return PitchFrame.midiToHz(midi + cents / 100);
    }

    private static double vibratoCents(double t) {
        double since = t - VIBRATO_DELAY_SECONDS;
        if (since <= 0) {
            return 0;
        }
        double depth = VIBRATO_CENTS * Math.min(1, since / VIBRATO_FADE_SECONDS);
        return depth * Math.sin(2 * Math.PI * VIBRATO_HZ * since);
    }
}
