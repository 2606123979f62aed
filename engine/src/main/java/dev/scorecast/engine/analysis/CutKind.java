package dev.scorecast.engine.analysis;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** How one shot gives way to the next. */
public enum CutKind {
    /** An instant change between two frames. */
    CUT,
    /** The picture comes up from black (or white). */
    FADE_IN,
    /** The picture goes down to black (or white). */
    FADE_OUT,
    /** Two shots overlap while one replaces the other. */
    DISSOLVE;

    /** The name in JSON: {@code cut}, {@code fade_in}, {@code fade_out}, {@code dissolve}. */
    @JsonValue
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
