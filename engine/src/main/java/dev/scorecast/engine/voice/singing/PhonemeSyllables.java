package dev.scorecast.engine.voice.singing;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Splits one word's espeak-ng phonemes (tokens joined by {@code _}, as {@code espeak-ng -x --sep=_}
 * writes them) into syllables: one vowel nucleus each, consonants between two nuclei going to the
 * second as far as English allows them to start a syllable (maximal onset).
 */
final class PhonemeSyllables {

    private static final String VOWEL_STARTS = "aAeEiIoOuUV03@&";
    private static final Set<String> GLIDES = Set.of("l", "r", "w", "j");
    private static final Set<String> STOPS_AND_FRICATIVES = Set.of("p", "b", "t", "d", "k", "g", "f", "T", "S");
    private static final Set<String> AFTER_S = Set.of("p", "t", "k", "m", "n", "l", "w", "f");

    private PhonemeSyllables() {}

    /** Each syllable as a phoneme string for espeak-ng's {@code [[...]]} input, stress marks kept. */
    static List<String> split(String phonemes) {
        List<String> tokens = new ArrayList<>();
        for (String t : phonemes.strip().split("[_\\s]+")) {
            if (!t.isEmpty()) {
                tokens.add(t);
            }
        }
        List<Integer> nuclei = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            if (isVowel(tokens.get(i))) {
                nuclei.add(i);
            }
        }
        if (nuclei.isEmpty()) {
            return tokens.isEmpty() ? List.of() : List.of(String.join("", tokens));
        }
        List<String> syllables = new ArrayList<>();
        int from = 0;
        for (int n = 0; n < nuclei.size(); n++) {
            int to = n + 1 < nuclei.size() ? onsetStart(tokens, nuclei.get(n), nuclei.get(n + 1)) : tokens.size();
            syllables.add(stressed(tokens.subList(from, to)));
            from = to;
        }
        return syllables;
    }

    /**
     * Joins a syllable's tokens; an unstressed syllable gets stress on its vowel, since espeak-ng
     * would otherwise shorten and reduce it and a sung syllable carries its vowel in full.
     */
    private static String stressed(List<String> tokens) {
        boolean hasStress = tokens.stream().anyMatch(t -> t.startsWith("'") || t.startsWith(","));
        StringBuilder b = new StringBuilder();
        for (String t : tokens) {
            b.append(!hasStress && isVowel(t) ? "'" : "").append(t);
        }
        return b.toString();
    }

    static boolean isVowel(String token) {
        String t = bare(token);
        return !t.isEmpty() && (VOWEL_STARTS.indexOf(t.charAt(0)) >= 0 || (t.length() == 2 && t.charAt(1) == '-'));
    }

    /** The index where the syllable after nucleus {@code a} begins, the next nucleus being at {@code b}. */
    private static int onsetStart(List<String> tokens, int a, int b) {
        int consonants = b - a - 1;
        if (consonants <= 1) {
            return a + 1;
        }
        String last = bare(tokens.get(b - 1));
        String before = bare(tokens.get(b - 2));
        boolean pair = (STOPS_AND_FRICATIVES.contains(before)
                        && GLIDES.contains(last)
                        && !(before.equals("t") && last.equals("l")))
                || (before.equals("s") && AFTER_S.contains(last));
        if (!pair) {
            return b - 1;
        }
        if (consonants >= 3
                && bare(tokens.get(b - 3)).equals("s")
                && Set.of("p", "t", "k").contains(before)) {
            return b - 3;
        }
        return b - 2;
    }

    /** A token without stress marks or espeak's variant suffix {@code #}. */
    private static String bare(String token) {
        return token.replaceAll("^[',%=]+", "").replace("#", "");
    }
}
