package dev.scorecast.engine.music;

import dev.scorecast.engine.music.Part.Control;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Slurred lines (issue 26, "strings, leads and bass have legato transitions"): in the spans where a
 * part's instrument plays legato (a palette entry's {@code legato}), each note that the next one
 * follows within {@link #SLUR_GAP_SECONDS} is held until {@link #OVERLAP_SECONDS} after that next
 * note starts, and the span is framed by the MIDI controllers that make a General MIDI synthesiser
 * play one voice gliding from note to note: mono mode (CC126) and portamento on (CC65) with a short
 * portamento time (CC5) at its start, poly mode (CC127) and portamento off at its end. Gervill then
 * moves the sounding voice to the new pitch instead of striking a new one (its SoftChannel does so for
 * a note-on while a note is held in mono mode with portamento on), so the phrase has one attack. A
 * longer gap (a breath, a phrase end; the band's clearing before a hit is one), a note on a beat
 * ({@link Span}) and a note on a hit are struck again. Pure.
 */
public final class Legato {
    /** The silence between two notes under which they are slurred: a sixteenth at 75 bpm. */
    static final double SLUR_GAP_SECONDS = 0.2;
    /** How long the slurred note overlaps the next, so that the next note-on finds it held. */
    static final double OVERLAP_SECONDS = 0.03;

    static final int PORTAMENTO = 65;
    static final int PORTAMENTO_TIME = 5;
    /**
     * Gervill's fastest portamento times sit at low values (0 would jump at once); 8 is a slide of a
     * few tens of milliseconds, heard as one note passing into the next rather than a swoop.
     */
    static final int GLIDE = 8;

    private Legato() {}

    /**
     * A stretch of the part, in seconds, played legato, and its beat (seconds from {@code start}):
     * slurs group the notes within a beat, as string players bow them, and a note on a beat is struck.
     * Why not slur across beats: a slurred phrase is one voice whose envelope and vibrato run on from
     * its first note, so a re-cut that keeps a shot from mid-phrase (conform) would start that voice
     * afresh and sound different until the phrase breathes; a beat bounds that to one beat.
     */
    public record Span(double start, double end, double beatSeconds) {
        boolean onBeat(double t) {
            double beats = (t - start) / beatSeconds;
            return Math.abs(beats - Math.rint(beats)) * beatSeconds < 0.01;
        }
    }

    /** {@code notes} with the slurred ones lengthened inside {@code spans}; the rest as they were. */
    static List<Note> slurred(List<Note> notes, List<Span> spans, List<Double> hits) {
        if (spans.isEmpty()) {
            return notes;
        }
        List<Note> sorted = new ArrayList<>(notes);
        sorted.sort(Comparator.comparingDouble(Note::start).thenComparingInt(Note::pitch));
        List<Note> out = new ArrayList<>(sorted.size());
        for (int i = 0; i < sorted.size(); i++) {
            Note n = sorted.get(i);
            Note next = i + 1 < sorted.size() ? sorted.get(i + 1) : null;
            Span span = spanOf(spans, n.start());
            if (span != null
                    && next != null
                    && next.start() > n.start() + 1e-6
                    && next.start() < span.end()
                    && next.start() - n.end() < SLUR_GAP_SECONDS
                    && next.pitch() != n.pitch()
                    && !span.onBeat(next.start())
                    && hits.stream()
                            .noneMatch(
                                    h -> Math.abs(next.start() - h) < 0.005)) { // a hit is struck, never slurred into
                out.add(n.moved(n.start(), next.start() + OVERLAP_SECONDS - n.start()));
            } else {
                out.add(n);
            }
        }
        return out;
    }

    /** The controllers that frame each span, merged into {@code controls} in time order. */
    static List<Control> framed(List<Control> controls, List<Span> spans) {
        if (spans.isEmpty()) {
            return controls;
        }
        List<Control> out = new ArrayList<>(controls);
        for (Span s : spans) {
            out.add(new Control(s.start(), PORTAMENTO_TIME, GLIDE));
            out.add(new Control(s.start(), PORTAMENTO, 127));
            out.add(new Control(s.start(), Control.MONO_ON, 1));
            out.add(new Control(s.end(), PORTAMENTO, 0));
            out.add(new Control(s.end(), Control.POLY_ON, 0));
        }
        out.sort(Comparator.comparingDouble(Control::time));
        return out;
    }

    private static Span spanOf(List<Span> spans, double t) {
        for (Span s : spans) {
            if (t >= s.start() - 1e-9 && t < s.end()) {
                return s;
            }
        }
        return null;
    }
}
