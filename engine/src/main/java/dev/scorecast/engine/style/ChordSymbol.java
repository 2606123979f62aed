package dev.scorecast.engine.style;

import java.util.regex.Pattern;

/**
 * The chord grammar shared by the planner and the composer: a Roman numeral naming a degree of the
 * section's mode, optionally lowered ({@code b}) or raised ({@code #}) a semitone; upper case a
 * major triad, lower case a minor one; then an optional {@code dim}/{@code aug} and an optional
 * extension ({@code 7}, {@code maj7}, {@code sus2}, {@code sus4}, {@code add9}). Examples: {@code i},
 * {@code bVII}, {@code IVmaj7}, {@code viidim7}, {@code Vsus4}.
 */
public final class ChordSymbol {
    public static final String GRAMMAR =
            "^(b|#)?(I|II|III|IV|V|VI|VII|i|ii|iii|iv|v|vi|vii)(dim|aug)?(7|maj7|sus2|sus4|add9)?$";
    private static final Pattern PATTERN = Pattern.compile(GRAMMAR);

    private ChordSymbol() {}

    public static boolean isValid(String symbol) {
        return symbol != null && PATTERN.matcher(symbol).matches();
    }
}
