package dev.scorecast.engine.style;

import java.util.List;
import java.util.Map;

/** Key names as plans spell them (C, C#, Db, ... B) and the semitone arithmetic between them. */
public final class Keys {
    /** Every key name a plan accepts. */
    public static final List<String> NAMES =
            List.of("C", "C#", "Db", "D", "D#", "Eb", "E", "F", "F#", "Gb", "G", "G#", "Ab", "A", "A#", "Bb", "B");

    private static final Map<String, Integer> PITCH_CLASS = Map.ofEntries(
            Map.entry("C", 0),
            Map.entry("C#", 1),
            Map.entry("Db", 1),
            Map.entry("D", 2),
            Map.entry("D#", 3),
            Map.entry("Eb", 3),
            Map.entry("E", 4),
            Map.entry("F", 5),
            Map.entry("F#", 6),
            Map.entry("Gb", 6),
            Map.entry("G", 7),
            Map.entry("G#", 8),
            Map.entry("Ab", 8),
            Map.entry("A", 9),
            Map.entry("A#", 10),
            Map.entry("Bb", 10),
            Map.entry("B", 11));
    /** How a tonic is usually spelt in a major-like (major, mixolydian) and a minor-like mode. */
    private static final List<String> MAJOR_SPELLING =
            List.of("C", "Db", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B");

    private static final List<String> MINOR_SPELLING =
            List.of("C", "C#", "D", "Eb", "E", "F", "F#", "G", "G#", "A", "Bb", "B");

    private Keys() {}

    /** 0 (C) to 11 (B), or -1 for a name that is not a key. */
    public static int pitchClass(String name) {
        return name == null ? -1 : PITCH_CLASS.getOrDefault(name, -1);
    }

    /** The conventional name of the tonic {@code semitones} above {@code name}, spelt for {@code mode}. */
    public static String transpose(String name, int semitones, String mode) {
        int pc = Math.floorMod(pitchClass(name) + semitones, 12);
        return minorLike(mode) ? MINOR_SPELLING.get(pc) : MAJOR_SPELLING.get(pc);
    }

    /** Minor and dorian have a minor third; major and mixolydian a major one. */
    public static boolean minorLike(String mode) {
        return mode.equals("minor") || mode.equals("dorian");
    }
}
