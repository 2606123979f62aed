package dev.scorecast.engine.voice.singing;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Splits English lyric text into syllables by spelling, so syllables can be placed on notes. The
 * rules are the schoolbook ones (one vowel group per syllable; a silent final e; "-le", "-ed",
 * "-es" endings; one consonant between vowels starts the next syllable, two are split unless they
 * spell one sound) and are right for most lyric words; the singer does not depend on them being
 * perfect, since espeak-ng pronounces whole words.
 *
 * <p>Output is hyphenated the way {@link SungNote#syllable()} wants it: every syllable but the
 * last of its word ends with {@code -}.
 */
public final class Syllabifier {

    private static final Set<String> DIGRAPHS = Set.of("th", "sh", "ch", "ph", "wh", "gh", "ck", "ng", "qu");
    private static final Set<String> ONSETS = Set.of(
            "bl", "br", "cl", "cr", "dr", "fl", "fr", "gl", "gr", "pl", "pr", "sc", "sk", "sl", "sm", "sn", "sp", "st",
            "sw", "tr", "tw", "thr", "shr", "str", "spr", "scr");

    private Syllabifier() {}

    /** Every word of {@code text} split into syllables, in order; punctuation around words is dropped. */
    public static List<String> syllables(String text) {
        List<String> out = new ArrayList<>();
        if (text == null) {
            return out;
        }
        for (String raw : text.strip().split("\\s+")) {
            String word = raw.replaceAll("^[^\\p{L}']+|[^\\p{L}']+$", "");
            if (word.isEmpty()) {
                continue;
            }
            List<String> parts = word(word);
            for (int i = 0; i < parts.size(); i++) {
                out.add(i < parts.size() - 1 ? parts.get(i) + "-" : parts.get(i));
            }
        }
        return out;
    }

    /** How many syllables {@code text} has. */
    public static int count(String text) {
        return syllables(text).size();
    }

    /** One word's syllables, letters as written. */
    static List<String> word(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        int n = w.length();
        boolean[] vowel = new boolean[n];
        for (int i = 0; i < n; i++) {
            vowel[i] = isVowel(w, i);
        }
        silenceEndings(w, vowel);
        List<int[]> groups = vowelGroups(w, vowel);
        if (groups.size() <= 1) {
            return List.of(word);
        }
        List<String> out = new ArrayList<>();
        int from = 0;
        for (int g = 0; g + 1 < groups.size(); g++) {
            int split = splitBetween(w, groups.get(g)[1], groups.get(g + 1)[0]);
            out.add(word.substring(from, split));
            from = split;
        }
        out.add(word.substring(from));
        return out;
    }

    private static boolean isVowel(String w, int i) {
        char c = w.charAt(i);
        if ("aeiou".indexOf(c) >= 0) {
            // "u" after "q" is part of the consonant "qu".
            return !(c == 'u' && i > 0 && w.charAt(i - 1) == 'q');
        }
        // "y" is a vowel except where it starts a syllable before a vowel ("yes", "beyond").
        return c == 'y'
                && i > 0
                && !(i + 1 < w.length()
                        && "aeiou".indexOf(w.charAt(i + 1)) >= 0
                        && "aeiou".indexOf(w.charAt(i - 1)) >= 0);
    }

    /** Silent final e (but not "-le" after a consonant), and "-ed" / "-es" that add no syllable. */
    private static void silenceEndings(String w, boolean[] vowel) {
        int n = w.length();
        if (n < 3 || vowelCount(vowel) < 2) {
            return;
        }
        if (w.endsWith("e") && !vowel[n - 2] && !(w.endsWith("le") && n >= 4 && !vowel[n - 3])) {
            vowel[n - 1] = false;
        } else if (w.endsWith("ed") && "td".indexOf(w.charAt(n - 3)) < 0 && !vowel[n - 3]) {
            vowel[n - 2] = false;
        } else if (w.endsWith("es") && !vowel[n - 3] && "sxzgc".indexOf(w.charAt(n - 3)) < 0 && !w.endsWith("hes")) {
            vowel[n - 2] = false;
        }
    }

    private static int vowelCount(boolean[] vowel) {
        int c = 0;
        for (boolean v : vowel) {
            c += v ? 1 : 0;
        }
        return c;
    }

    /** Runs of vowel letters, split after a y or w glide ("play-er") and before "-ing" ("go-ing"). */
    private static List<int[]> vowelGroups(String w, boolean[] vowel) {
        List<int[]> groups = new ArrayList<>();
        int i = 0;
        while (i < w.length()) {
            if (!vowel[i]) {
                i++;
                continue;
            }
            int start = i;
            i++;
            while (i < w.length()
                    && vowel[i]
                    && w.charAt(i - 1) != 'y'
                    && !(w.startsWith("ing", i) && i + 3 == w.length())) {
                i++;
            }
            groups.add(new int[] {start, i});
        }
        return groups;
    }

    /** Where the syllable after the vowel group ending at {@code end} starts, the next group starting at {@code next}. */
    private static int splitBetween(String w, int end, int next) {
        int consonants = next - end;
        if (consonants <= 1) {
            return end;
        }
        if (next == w.length() - 1 && w.endsWith("le")) {
            return next - 2; // "ta-ble", "can-dle", "lit-tle"
        }
        String cluster = w.substring(end, next);
        if (consonants == 2) {
            if (cluster.equals("ck") || cluster.equals("ng") || cluster.equals("gh")) {
                return next; // they end a syllable: "pick-et", "sing-er"
            }
            return DIGRAPHS.contains(cluster) ? end : end + 1;
        }
        for (int k = Math.min(3, consonants - 1); k >= 2; k--) {
            String tail = cluster.substring(consonants - k);
            if (ONSETS.contains(tail) || DIGRAPHS.contains(tail)) {
                return next - k;
            }
        }
        return next - 1;
    }
}
