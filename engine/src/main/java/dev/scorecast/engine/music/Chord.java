package dev.scorecast.engine.music;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A chord of a progression, resolved in a key: {@code root} is a pitch class (0 = C) and
 * {@code intervals} the semitones above it (the root's 0 first). Roman degrees count in the
 * section's MODE scale (in C minor "VI" is Ab, "III" Eb, "VII" Bb); a leading b or # shifts that
 * root by a semitone. Upper case is a major triad, lower case minor; dim/aug and 7, maj7, sus2,
 * sus4, add9 alter it.
 */
public record Chord(String symbol, int root, List<Integer> intervals) {

    static final Pattern GRAMMAR =
            Pattern.compile("^(b|#)?(I|II|III|IV|V|VI|VII|i|ii|iii|iv|v|vi|vii)(dim|aug)?(7|maj7|sus2|sus4|add9)?$");
    private static final List<String> DEGREES = List.of("i", "ii", "iii", "iv", "v", "vi", "vii");

    public Chord {
        intervals = List.copyOf(intervals);
    }

    /** Parses one progression symbol; a symbol outside the grammar is a planner bug. */
    public static Chord parse(String symbol, String key, String mode) {
        Matcher m = GRAMMAR.matcher(symbol == null ? "" : symbol);
        if (!m.matches()) {
            throw new IllegalStateException("chord symbol '" + symbol + "' does not follow the progression grammar");
        }
        int[] scale = scale(mode);
        String numeral = m.group(2);
        boolean major = Character.isUpperCase(numeral.charAt(0));
        int degree = DEGREES.indexOf(numeral.toLowerCase(Locale.ROOT));
        int shift = m.group(1) == null ? 0 : m.group(1).equals("b") ? -1 : 1;
        int root = Math.floorMod(tonic(key) + scale[degree] + shift, 12);
        String quality = m.group(3);
        String extension = m.group(4);
        List<Integer> iv = new ArrayList<>();
        int third = major ? 4 : 3;
        int fifth = 7;
        if ("dim".equals(quality)) {
            third = 3;
            fifth = 6;
        } else if ("aug".equals(quality)) {
            third = 4;
            fifth = 8;
        }
        iv.add(0);
        if ("sus2".equals(extension)) {
            iv.add(2);
        } else if ("sus4".equals(extension)) {
            iv.add(5);
        } else {
            iv.add(third);
        }
        iv.add(fifth);
        if ("7".equals(extension)) {
            iv.add("dim".equals(quality) ? 9 : 10);
        } else if ("maj7".equals(extension)) {
            iv.add(11);
        } else if ("add9".equals(extension)) {
            iv.add(14);
        }
        return new Chord(symbol, root, iv);
    }

    /** Pitch class of a key name: C C# Db D D# Eb E F F# Gb G G# Ab A A# Bb B. */
    public static int tonic(String key) {
        return switch (key == null ? "" : key) {
            case "C" -> 0;
            case "C#", "Db" -> 1;
            case "D" -> 2;
            case "D#", "Eb" -> 3;
            case "E" -> 4;
            case "F" -> 5;
            case "F#", "Gb" -> 6;
            case "G" -> 7;
            case "G#", "Ab" -> 8;
            case "A" -> 9;
            case "A#", "Bb" -> 10;
            case "B" -> 11;
            default ->
                throw new IllegalStateException(
                        "key '" + key + "' is not one of C C# Db D D# Eb E F F# Gb G G# Ab A A# Bb B");
        };
    }

    /** Semitones of the seven degrees of a mode above its tonic. */
    public static int[] scale(String mode) {
        return switch (mode == null ? "" : mode) {
            case "major" -> new int[] {0, 2, 4, 5, 7, 9, 11};
            case "minor" -> new int[] {0, 2, 3, 5, 7, 8, 10};
            case "dorian" -> new int[] {0, 2, 3, 5, 7, 9, 10};
            case "mixolydian" -> new int[] {0, 2, 4, 5, 7, 9, 10};
            default ->
                throw new IllegalStateException("mode '" + mode + "' is not one of major, minor, dorian, mixolydian");
        };
    }

    /** The tonic chord symbol of a mode: "I" in major and mixolydian, "i" in minor and dorian. */
    static String tonicSymbol(String mode) {
        return "major".equals(mode) || "mixolydian".equals(mode) ? "I" : "i";
    }

    /** Pitch classes of the chord, root first. */
    public List<Integer> pitchClasses() {
        return intervals.stream().map(i -> Math.floorMod(root + i, 12)).toList();
    }

    /** True when pitch class {@code pc} belongs to the chord. */
    boolean contains(int pc) {
        return pitchClasses().contains(Math.floorMod(pc, 12));
    }

    /** The MIDI pitch with this chord's root class nearest to {@code near}. */
    int rootNear(int near) {
        int p = near - Math.floorMod(near - root, 12);
        return near - p > 6 ? p + 12 : p;
    }
}
