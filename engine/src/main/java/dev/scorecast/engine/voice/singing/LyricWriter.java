package dev.scorecast.engine.voice.singing;

import dev.scorecast.engine.error.InvalidParameter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes lyrics from the grammar in {@code voice/lyrics.json}: templates whose slots take words of
 * the mood (from valence and arousal) and of the genre, lines rhyming in pairs (AABB, or ABAB in
 * odd sections), families ending on open vowels preferred because line ends fall on long notes.
 * The same arguments and seed give the same words; the sections of one song never repeat.
 */
public final class LyricWriter {

    static final List<String> MOODS = List.of("bright", "warm", "dark", "blue");
    private static final Pattern SLOT = Pattern.compile("\\{(rhyme:)?(noun|adj|verb)}");
    private static final int OPEN_WEIGHT = 3;
    private static final LyricWriter BUILT_IN = new LyricWriter(LyricGrammar.load());

    private final LyricGrammar grammar;

    private LyricWriter(LyricGrammar grammar) {
        this.grammar = grammar;
    }

    public static LyricWriter builtIn() {
        return BUILT_IN;
    }

    /** The mood a valence and arousal (both 0..1) fall in: bright, warm, dark or blue. */
    public static String mood(double valence, double arousal) {
        check(valence, arousal);
        return valence >= 0.5 ? (arousal >= 0.5 ? "bright" : "warm") : (arousal >= 0.5 ? "dark" : "blue");
    }

    /**
     * Lyrics for every section of a song, {@code linesPerSection.get(i)} lines for section i, no
     * two sections the same.
     */
    public List<Lyrics> writeSong(
            String genre, double valence, double arousal, List<Integer> linesPerSection, long seed) {
        if (linesPerSection == null || linesPerSection.isEmpty()) {
            throw new InvalidParameter("sections", "give the number of lines of at least one section");
        }
        Set<String> used = new HashSet<>();
        List<Lyrics> song = new ArrayList<>();
        for (int s = 0; s < linesPerSection.size(); s++) {
            Lyrics lyrics = null;
            for (int attempt = 0; lyrics == null || used.contains(lyrics.text()); attempt++) {
                if (attempt == 50) {
                    throw new IllegalStateException(
                            "the lyric grammar cannot fill " + linesPerSection.size() + " distinct sections");
                }
                lyrics = write(genre, valence, arousal, linesPerSection.get(s), s, seed + 7919L * attempt);
            }
            used.add(lyrics.text());
            song.add(lyrics);
        }
        return song;
    }

    /** Lyrics of one section ({@code section} counts from 0 and varies the words and the rhyme scheme). */
    public Lyrics write(String genre, double valence, double arousal, int lines, int section, long seed) {
        if (genre == null || !grammar.genres().containsKey(genre)) {
            throw new InvalidParameter(
                    "genre",
                    "'" + genre + "' has no lyric vocabulary; use one of "
                            + grammar.genres().keySet());
        }
        if (lines < 1 || lines > 16) {
            throw new InvalidParameter("lines", "a section has 1-16 lines of lyrics, was " + lines);
        }
        if (section < 0) {
            throw new InvalidParameter("section", "must not be negative, was " + section);
        }
        LyricGrammar.Words words = grammar.moods().get(mood(valence, arousal));
        List<String> nouns = new ArrayList<>(words.noun());
        nouns.addAll(grammar.genres().get(genre));
        Random random = new Random(seed * 1_000_003L + section * 8191L + genre.hashCode());
        List<String> out = new ArrayList<>();
        Set<String> endings = new HashSet<>();
        boolean alternate = section % 2 == 1 && lines >= 4;
        LyricGrammar.Rhyme[] families = new LyricGrammar.Rhyme[2];
        for (int i = 0; i < lines; i++) {
            // AABB: a new family every two lines; ABAB: two families per four lines.
            int slot = alternate ? i % 2 : 0;
            boolean fresh = alternate ? i % 4 < 2 : i % 2 == 0;
            if (fresh) {
                families[slot] = family(random, families[1 - slot]);
            }
            out.add(line(random, words, nouns, families[slot], endings, out));
        }
        return new Lyrics(out);
    }

    /** True when both words end a line with the same rhyme family. */
    public boolean rhymes(String a, String b) {
        for (LyricGrammar.Rhyme r : grammar.rhymes()) {
            if (endsWithAny(a, r) && endsWithAny(b, r)) {
                return true;
            }
        }
        return false;
    }

    private static boolean endsWithAny(String line, LyricGrammar.Rhyme r) {
        String l = line.toLowerCase();
        return r.noun().stream().anyMatch(w -> l.endsWith(" " + w))
                || r.adj().stream().anyMatch(w -> l.endsWith(" " + w));
    }

    private LyricGrammar.Rhyme family(Random random, LyricGrammar.Rhyme avoid) {
        List<LyricGrammar.Rhyme> pool = new ArrayList<>();
        for (LyricGrammar.Rhyme r : grammar.rhymes()) {
            if (r != avoid) {
                for (int k = 0; k < (r.open() ? OPEN_WEIGHT : 1); k++) {
                    pool.add(r);
                }
            }
        }
        return pool.get(random.nextInt(pool.size()));
    }

    private String line(
            Random random,
            LyricGrammar.Words words,
            List<String> nouns,
            LyricGrammar.Rhyme family,
            Set<String> endings,
            List<String> earlier) {
        for (int attempt = 0; ; attempt++) {
            String template =
                    grammar.templates().get(random.nextInt(grammar.templates().size()));
            Matcher m = SLOT.matcher(template);
            StringBuilder b = new StringBuilder();
            String ending = null;
            while (m.find()) {
                String kind = m.group(2);
                String word;
                if (m.group(1) != null) {
                    List<String> choices = family.words(kind).stream()
                            .filter(w -> !endings.contains(w))
                            .toList();
                    if (choices.isEmpty()) {
                        choices = family.words(kind);
                    }
                    word = choices.get(random.nextInt(choices.size()));
                    ending = word;
                } else {
                    List<String> from = switch (kind) {
                        case "noun" -> nouns;
                        case "adj" -> words.adj();
                        default -> words.verb();
                    };
                    word = from.get(random.nextInt(from.size()));
                }
                m.appendReplacement(b, Matcher.quoteReplacement(word));
            }
            m.appendTail(b);
            String line = Character.toUpperCase(b.charAt(0)) + b.substring(1);
            // Lines of a section differ, and so do their last words, unless the grammar runs dry.
            if ((!earlier.contains(line) && !endings.contains(ending)) || attempt > 20) {
                endings.add(ending);
                return line;
            }
        }
    }

    private static void check(double valence, double arousal) {
        if (!(valence >= 0 && valence <= 1)) {
            throw new InvalidParameter("valence", "must be in [0, 1], was " + valence);
        }
        if (!(arousal >= 0 && arousal <= 1)) {
            throw new InvalidParameter("arousal", "must be in [0, 1], was " + arousal);
        }
    }
}
