package dev.scorecast.engine.voice.singing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.voice.Espeak;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LyricWriterTest {

    static final LyricWriter WRITER = LyricWriter.builtIn();
    static final List<String> GENRES = List.of(
            "deep",
            "cinematic",
            "ambient",
            "lofi",
            "house",
            "techno",
            "hip-hop",
            "rock",
            "pop",
            "acoustic",
            "orchestral",
            "corporate");

    @Test
    void theSameSeedWritesTheSameWords() {
        List<Lyrics> a = WRITER.writeSong("pop", 0.8, 0.7, List.of(4, 4, 4), 42);
        List<Lyrics> b = WRITER.writeSong("pop", 0.8, 0.7, List.of(4, 4, 4), 42);
        assertEquals(a, b);
        assertNotEquals(a, WRITER.writeSong("pop", 0.8, 0.7, List.of(4, 4, 4), 43));
        a.forEach(l -> System.out.println("lyrics (pop, bright, seed 42):\n" + l.text() + "\n"));
    }

    @Test
    void noTwoSectionsAreTheSame() {
        for (String genre : GENRES) {
            for (long seed = 0; seed < 5; seed++) {
                List<Lyrics> song =
                        WRITER.writeSong(genre, seed / 5.0, 1 - seed / 5.0, List.of(4, 4, 2, 4, 4, 4, 4, 8), seed);
                Set<String> texts = new HashSet<>();
                song.forEach(l -> texts.add(l.text()));
                assertEquals(song.size(), texts.size(), genre + " seed " + seed);
            }
        }
    }

    @Test
    void linesRhymeInPairsAndSoundAlike() {
        Espeak espeak = new Espeak(Duration.ofSeconds(10));
        int pairs = 0;
        for (int section = 0; section < 4; section++) {
            Lyrics lyrics = WRITER.write("rock", 0.3, 0.8, 4, section, 7);
            List<String> lines = lyrics.lines();
            // Section 1 and 3 rhyme ABAB, 0 and 2 AABB.
            int[][] partners = section % 2 == 1 ? new int[][] {{0, 2}, {1, 3}} : new int[][] {{0, 1}, {2, 3}};
            List<String> lastWords =
                    lines.stream().map(l -> l.substring(l.lastIndexOf(' ') + 1)).toList();
            List<String> phonemes = espeak.phonemes("en-us", lastWords);
            for (int[] p : partners) {
                assertTrue(WRITER.rhymes(lines.get(p[0]), lines.get(p[1])), lines.toString());
                assertEquals(
                        rhymeKey(phonemes.get(p[0])),
                        rhymeKey(phonemes.get(p[1])),
                        lastWords.get(p[0]) + " / " + lastWords.get(p[1]) + " do not sound alike");
                assertNotEquals(lastWords.get(p[0]), lastWords.get(p[1]));
                pairs++;
            }
        }
        assertEquals(8, pairs);
    }

    @Test
    void lineEndsPreferOpenVowels() {
        Set<String> openEnds =
                Set.of("ight", "ay", "oh", "ee", "eye", "ire", "ame", "ain", "ar", "one", "ound", "old", "oo");
        int open = 0;
        int all = 0;
        for (long seed = 0; seed < 40; seed++) {
            for (String line : WRITER.write("acoustic", 0.7, 0.3, 4, 0, seed).lines()) {
                all++;
                String l = line;
                boolean closed = List.of(
                                "heart",
                                "start",
                                "art",
                                "part",
                                "apart",
                                "smart",
                                "off the chart",
                                "skin",
                                "violin",
                                "mandolin",
                                "within",
                                "thin",
                                "akin",
                                "dust",
                                "trust",
                                "rust",
                                "wanderlust",
                                "a must",
                                "robust",
                                "just",
                                "unjust")
                        .stream()
                        .anyMatch(w -> l.endsWith(" " + w));
                open += closed ? 0 : 1;
            }
        }
        System.out.printf("lyrics: %d of %d line ends on an open vowel%n", open, all);
        assertTrue(open > 0.75 * all, open + " of " + all);
        assertTrue(openEnds.size() > 3);
    }

    @Test
    void moodAndGenreChangeTheWords() {
        String bright = String.join(
                " ",
                WRITER.writeSong("house", 0.9, 0.9, List.of(8, 8), 1).stream()
                        .map(Lyrics::text)
                        .toList());
        String blue = String.join(
                " ",
                WRITER.writeSong("house", 0.1, 0.1, List.of(8, 8), 1).stream()
                        .map(Lyrics::text)
                        .toList());
        assertNotEquals(bright, blue);
        assertEquals("bright", LyricWriter.mood(0.9, 0.9));
        assertEquals("blue", LyricWriter.mood(0.1, 0.1));
        assertEquals("dark", LyricWriter.mood(0.2, 0.8));
        assertEquals("warm", LyricWriter.mood(0.8, 0.2));
    }

    @Test
    void everyLineSplitsIntoSingableSyllables() {
        for (Lyrics l : WRITER.writeSong("lofi", 0.4, 0.2, List.of(4, 4), 3)) {
            for (List<String> line : l.syllables()) {
                assertTrue(line.size() >= 4 && line.size() <= 16, line.toString());
                line.forEach(s -> SungNote.sung(0, 0.2, 60, 90, s));
            }
        }
    }

    @Test
    void badArgumentsNameTheirField() {
        assertEquals(
                "genre",
                assertThrows(InvalidParameter.class, () -> WRITER.write("polka", 0.5, 0.5, 4, 0, 1))
                        .field());
        assertEquals(
                "lines",
                assertThrows(InvalidParameter.class, () -> WRITER.write("pop", 0.5, 0.5, 0, 0, 1))
                        .field());
        assertEquals(
                "valence",
                assertThrows(InvalidParameter.class, () -> WRITER.write("pop", 1.5, 0.5, 4, 0, 1))
                        .field());
        assertEquals(
                "arousal",
                assertThrows(InvalidParameter.class, () -> WRITER.write("pop", 0.5, Double.NaN, 4, 0, 1))
                        .field());
        assertEquals(
                "sections",
                assertThrows(InvalidParameter.class, () -> WRITER.writeSong("pop", 0.5, 0.5, new ArrayList<>(), 1))
                        .field());
    }

    /** The last vowel (length marks ignored) and what follows it: what a listener hears as the rhyme. */
    static String rhymeKey(String phonemes) {
        String[] tokens = phonemes.strip().split("[_\\s]+");
        for (int i = tokens.length - 1; i >= 0; i--) {
            if (PhonemeSyllables.isVowel(tokens[i])) {
                StringBuilder key = new StringBuilder(
                        tokens[i].replaceAll("^[',%=]+", "").replace(":", "").replace("#", ""));
                for (int k = i + 1; k < tokens.length; k++) {
                    key.append('_').append(tokens[k].replace("#", ""));
                }
                return key.toString();
            }
        }
        return phonemes;
    }
}
