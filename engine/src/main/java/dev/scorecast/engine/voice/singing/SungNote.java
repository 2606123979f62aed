package dev.scorecast.engine.voice.singing;

import dev.scorecast.engine.error.InvalidParameter;

/**
 * One note of a vocal line: when (seconds from the start of the line's audio), how long, which
 * MIDI pitch, how loud (velocity 1-127) and what is sung on it.
 *
 * <p>{@code syllable} is one syllable of lyrics in the usual hyphenated form: a syllable that does
 * not end its word ends with {@code -} ("beau-", "ti-", "ful"), see {@link Syllabifier}. A
 * {@code melisma} note carries no syllable: it continues the previous note's vowel on a new pitch.
 * A gap between one note's end and the next note's start is a rest; a rest of
 * {@link EspeakSinger#BREATH_GAP_SECONDS} or more ends a line and gets a breath.
 */
public record SungNote(double start, double duration, int pitch, int velocity, String syllable, boolean melisma) {

    public SungNote {
        if (!(start >= 0 && start < 86_400)) {
            throw new InvalidParameter("start", "must be in [0, 86400) seconds, was " + start);
        }
        if (!(duration >= 0.03 && duration <= 30)) {
            throw new InvalidParameter("duration", "must be in [0.03, 30] seconds, was " + duration);
        }
        if (pitch < 28 || pitch > 96) {
            throw new InvalidParameter("pitch", "must be a MIDI note a voice can sing, 28-96, was " + pitch);
        }
        if (velocity < 1 || velocity > 127) {
            throw new InvalidParameter("velocity", "must be in 1-127, was " + velocity);
        }
        if (melisma) {
            if (syllable != null && !syllable.isBlank()) {
                throw new InvalidParameter(
                        "syllable", "a melisma note continues the previous syllable: leave its syllable empty");
            }
            syllable = "";
        } else if (syllable == null || syllable.isBlank() || syllable.strip().equals("-")) {
            throw new InvalidParameter(
                    "syllable", "give the syllable sung on this note, or mark the note as a melisma");
        } else {
            syllable = syllable.strip();
        }
    }

    /** A note that starts a syllable. */
    public static SungNote sung(double start, double duration, int pitch, int velocity, String syllable) {
        return new SungNote(start, duration, pitch, velocity, syllable, false);
    }

    /** A note that carries the previous syllable on to a new pitch. */
    public static SungNote melisma(double start, double duration, int pitch, int velocity) {
        return new SungNote(start, duration, pitch, velocity, "", true);
    }

    public double end() {
        return start + duration;
    }

    /** True when the next syllable belongs to the same word. */
    public boolean wordContinues() {
        return syllable.endsWith("-");
    }
}
