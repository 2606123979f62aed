package dev.scorecast.engine.music;

import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.music.Part.Control;
import dev.scorecast.engine.plan.Section;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.DoubleToIntFunction;
import java.util.function.ToDoubleBiFunction;

/**
 * Expression curves (CC11) for sustained parts, so a held chord breathes instead of sitting at one
 * level: each chord (the notes struck together) swells from {@link #FLOOR} to its peak a little
 * before its middle and eases back to {@link #SETTLE} of the way by its end, the peak rising with
 * the section's intensity. Pads always; harmony and melody when their instrument sustains (organ,
 * strings, ensemble, brass, reeds and pipes, synth leads and pads: GM 16-23, 40-95). Points every
 * {@link #STEP_SECONDS}, and back to the floor at each new chord. Pure.
 */
final class Expression {
    static final int FLOOR = 84;
    static final double SETTLE = 0.65;
    static final double STEP_SECONDS = 0.06;
    /** Shorter chords are not shaped: a stab has no time to breathe. */
    static final double MIN_SECONDS = 0.5;

    /** The closing chord fades over this long before it is let go, and to this share of its level: a diminuendo, not a stop. */
    static final double FADE_SECONDS = 0.8;

    static final double FADE_TO = 0.35;

    private Expression() {}

    /**
     * {@code curve} with the ending faded: from {@code releaseAt - FADE_SECONDS} the expression
     * falls from where it stands to {@link #FADE_TO} of it at {@code releaseAt}, where the last
     * notes are let go. Points after the fade begins are replaced.
     */
    static List<Control> fadeOut(List<Control> curve, double releaseAt) {
        double from = releaseAt - FADE_SECONDS;
        List<Control> out = new ArrayList<>();
        int level = 127;
        for (Control c : curve) {
            if (c.time() < from) {
                out.add(c);
                level = c.value();
            }
        }
        if (from <= 0) {
            return out;
        }
        int last = -1;
        for (double t = from; t <= releaseAt + 1e-9; t += STEP_SECONDS) {
            double u = Math.min(1, (t - from) / FADE_SECONDS);
            int value = (int) Math.round(level * (1 - (1 - FADE_TO) * u));
            if (value != last) {
                out.add(new Control(t, Control.EXPRESSION, value));
                last = value;
            }
        }
        return out;
    }

    /** The expression of the calmest bar and of the most intense: about 8 dB apart (GM's expression is squared). */
    static final int CALM_LEVEL = 80;

    static final int FULL_LEVEL = 127;
    /**
     * The drums' calmest bar: about 3.5 dB under full. The drums follow the picture mostly by their
     * pattern and velocity; this fader ride adds the level step a mixer would, so that a fast shot
     * after a normal one is audibly louder and not only busier (the speed ladder, docs/SOUND.md).
     */
    static final int DRUM_CALM_LEVEL = 103;

    /**
     * One expression step on each bar's downbeat, from {@link #CALM_LEVEL} at {@code level} 0 to
     * {@link #FULL_LEVEL} at 1, for a part that does not swell chord by chord: the level follows the
     * picture's intensity bar by bar (issue 26), a step only where it changes.
     */
    static List<Control> barLevels(List<Section> sections, ToDoubleBiFunction<Section, Integer> intensity) {
        return barLevels(sections, intensity, CALM_LEVEL);
    }

    /** As {@link #barLevels(List, java.util.function.ToDoubleBiFunction)}, from {@code calm} at level 0. */
    static List<Control> barLevels(List<Section> sections, ToDoubleBiFunction<Section, Integer> intensity, int calm) {
        List<Control> out = new ArrayList<>();
        int last = -1;
        for (var s : sections) {
            double bar = s.durationSeconds() / Math.max(1, s.bars());
            for (int b = 0; b < s.bars(); b++) {
                int value =
                        (int) Math.round(calm + (FULL_LEVEL - calm) * Math.clamp(intensity.applyAsDouble(s, b), 0, 1));
                if (value != last) {
                    out.add(new Control(s.start() + b * bar, Control.EXPRESSION, value));
                    last = value;
                }
            }
        }
        return out;
    }

    static boolean sustains(InstrumentGroup group, int program) {
        return group == InstrumentGroup.PADS
                || (group == InstrumentGroup.HARMONY || group == InstrumentGroup.MELODY)
                        && (program >= 16 && program <= 23 || program >= 40 && program <= 95);
    }

    /**
     * The curve for {@code notes}; {@code peakAt(time)} gives the peak value (up to 127) for a
     * chord struck at that time.
     */
    static List<Control> curve(List<Note> notes, DoubleToIntFunction peakAt) {
        TreeMap<Double, Double> chords = new TreeMap<>(); // start -> latest end of the notes struck then
        for (Note n : notes) {
            double start = Math.round(n.start() * 1000) / 1000.0;
            chords.merge(start, n.end(), Math::max);
        }
        List<Control> out = new ArrayList<>();
        int last = -1;
        Double[] starts = chords.keySet().toArray(Double[]::new);
        for (int i = 0; i < starts.length; i++) {
            double start = starts[i];
            double end = chords.get(start);
            if (i + 1 < starts.length) {
                end = Math.min(end, starts[i + 1]);
            }
            double length = end - start;
            int peak = Math.clamp(peakAt.applyAsInt(start), FLOOR, 127);
            if (length < MIN_SECONDS) {
                if (peak != last) {
                    out.add(new Control(start, Control.EXPRESSION, peak));
                    last = peak;
                }
                continue;
            }
            for (double t = start; t < end - 1e-9; t += STEP_SECONDS) {
                double u = (t - start) / length;
                // Up over the first 40 %, then back down to SETTLE of the way by the end.
                double shape = u < 0.4
                        ? Math.sin(u / 0.4 * Math.PI / 2)
                        : 1 - (1 - SETTLE) * Math.sin((u - 0.4) / 0.6 * Math.PI / 2);
                int value = (int) Math.round(FLOOR + (peak - FLOOR) * shape);
                if (value != last) {
                    out.add(new Control(t, Control.EXPRESSION, value));
                    last = value;
                }
            }
        }
        return out;
    }
}
