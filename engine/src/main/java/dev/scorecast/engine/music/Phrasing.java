package dev.scorecast.engine.music;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import dev.scorecast.engine.io.Json;
import dev.scorecast.engine.plan.Section;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/**
 * How a part develops over a phrase instead of repeating one bar (issue 26): each bar of a section
 * plays its level's bar (A) or a variant of it (B, C, D), after an 8-bar form; the bar before the
 * next section is a turnaround (D), and the final section closes on its level's own bars. The forms and variants are style data: styles/phrases.json for
 * every genre, a genre's pattern file per group, a level per bar. Variants are overlays on the
 * level's bar ('_' keeps a step), so one variant fits every level of a group. Pure functions.
 */
final class Phrasing {
    static final char KEEP = '_';
    static final int PHRASE_BARS = 8;
    private static final File DATA = load();
    private static final Map<String, GroupPhrasing> DEFAULTS = DATA.groups();

    private Phrasing() {}

    /** A group's forms and variant overlays; a genre's own override the defaults key by key. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record GroupPhrasing(List<String> forms, Map<String, JsonNode> variants) {}

    @JsonIgnoreProperties(ignoreUnknown = true)
    private record File(Map<String, GroupPhrasing> groups, Arc arc) {}

    /** Layers entering and leaving on phrase boundaries (phrases.json "arc"). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Arc(Intro intro, Outro outro, Breakdown breakdown) {
        @JsonIgnoreProperties(ignoreUnknown = true)
        record Intro(int enterFrom, Map<String, Integer> enter) {}

        @JsonIgnoreProperties(ignoreUnknown = true)
        record Outro(int minBars, Map<String, Integer> leave) {}

        @JsonIgnoreProperties(ignoreUnknown = true)
        record Breakdown(int minBars, Map<String, List<Integer>> rest) {}
    }

    /**
     * The variant a bar plays: the bar before the next section is the turnaround D (when the
     * section has room for one), the final section's closing bar its own, else the letter of the
     * form the phrase takes (phrases cycle through the forms, a section starting one further).
     */
    static char letter(List<String> forms, int section, int bar, int bars, boolean last) {
        if (!last && bars >= 2 && bar == bars - 1) {
            return 'D';
        }
        // The cadence is the level's own: a chord anticipated into the closing bar would be cut by the clearing before
        // its accent.
        if (forms == null || forms.isEmpty() || last && bar >= bars - 2) {
            return 'A';
        }
        String form = forms.get(Math.floorMod(section + bar / PHRASE_BARS, forms.size()))
                .replace(" ", "");
        return form.isEmpty() ? 'A' : form.charAt(bar % PHRASE_BARS % form.length());
    }

    /** The forms of a group: the genre's, else the defaults. */
    static List<String> forms(String group, StyleBook.GroupStyle style) {
        if (style.forms() != null) {
            return style.forms();
        }
        GroupPhrasing defaults = DEFAULTS.get(group);
        return defaults == null ? List.of() : defaults.forms();
    }

    /** The overlays of variant {@code letter} for a level's bar: the level's own, the genre's, else the default; null if none. */
    static JsonNode variant(String group, StyleBook.GroupStyle style, StyleBook.Level level, char letter) {
        String key = String.valueOf(letter);
        if (level.variants() != null && level.variants().containsKey(key)) {
            return level.variants().get(key);
        }
        if (style.variants() != null && style.variants().containsKey(key)) {
            return style.variants().get(key);
        }
        GroupPhrasing defaults = DEFAULTS.get(group);
        return defaults == null || defaults.variants() == null
                ? null
                : defaults.variants().get(key);
    }

    /**
     * The bar a letter plays of a rhythm string (bass, harmony, pads, tops): A the pattern itself;
     * another letter the first of its overlays that sounds different from the bar's A and from the
     * letters before it (B before C before D), so that each variant is heard as one at any level.
     * {@code variants} gives a letter's overlays (a string, an array of them, or null).
     */
    static String rhythm(String pattern, int bar, char letter, IntFunction<JsonNode> variants) {
        if (letter == 'A' || pattern == null || pattern.isEmpty()) {
            return pattern;
        }
        return choose(
                pattern,
                slice(pattern, bar),
                letter,
                variants,
                c -> overlay(pattern, bar, c.asText()),
                Phrasing::onsets);
    }

    /** The same for a drum grid: a candidate is heard as new when the bar's onsets, all drums together, differ. */
    static Map<String, String> grid(Map<String, String> grid, int bar, char letter, IntFunction<JsonNode> variants) {
        if (letter == 'A' || grid.isEmpty()) {
            return grid;
        }
        return choose(grid, overlay(grid, bar, null), letter, variants, c -> overlay(grid, bar, c), Phrasing::onsets);
    }

    /**
     * Letter by letter from B, the first candidate whose onsets no earlier letter (nor the bar itself, {@code own}) has;
     * the first candidate when none is new; the level's bar when a letter has none.
     */
    private static <T> T choose(
            T level,
            T own,
            char letter,
            IntFunction<JsonNode> variants,
            Function<JsonNode, T> apply,
            Function<T, BitSet> onsets) {
        Set<BitSet> heard = new HashSet<>();
        heard.add(onsets.apply(own));
        T chosen = level;
        for (char c = 'B'; c <= letter; c++) {
            chosen = level;
            T first = null;
            for (JsonNode candidate : candidates(variants.apply(c))) {
                T varied = apply.apply(candidate);
                first = first == null ? varied : first;
                if (!heard.contains(onsets.apply(varied))) {
                    chosen = varied;
                    break;
                }
                chosen = first;
            }
            heard.add(onsets.apply(chosen == level ? own : chosen));
        }
        return chosen;
    }

    private static List<JsonNode> candidates(JsonNode node) {
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (node.isArray()) {
            List<JsonNode> out = new ArrayList<>();
            node.forEach(out::add);
            return out;
        }
        return List.of(node);
    }

    /** The steps a bar of a rhythm string starts a note on. */
    static BitSet onsets(String bar) {
        BitSet out = new BitSet(16);
        for (int i = 0; i < Math.min(16, bar.length()); i++) {
            char c = bar.charAt(i);
            if (c != '.' && c != '-') {
                out.set(i);
            }
        }
        return out;
    }

    /** The steps any drum of a bar's grid strikes on. */
    static BitSet onsets(Map<String, String> bar) {
        BitSet out = new BitSet(16);
        for (String row : bar.values()) {
            for (int i = 0; i < Math.min(16, row.length()); i++) {
                if (row.charAt(i) >= '1' && row.charAt(i) <= '9') {
                    out.set(i);
                }
            }
        }
        return out;
    }

    /**
     * One bar of a rhythm string with an overlay laid over it: the pattern's slice for {@code bar}
     * (a pattern of 32 steps spans two bars), each step the overlay does not keep replaced.
     */
    static String overlay(String pattern, int bar, String overlay) {
        String slice = slice(pattern, bar);
        StringBuilder out = new StringBuilder(slice);
        for (int i = 0; i < Math.min(16, overlay.length()); i++) {
            if (overlay.charAt(i) != KEEP) {
                out.setCharAt(i, overlay.charAt(i));
            }
        }
        return out.toString();
    }

    /**
     * A drum grid's bar with an overlay per note laid over it ('*' for every note it does not
     * name); a note the grid lacks is added where the overlay strikes it. A null overlay gives
     * the bar's slices as they are.
     */
    static Map<String, String> overlay(Map<String, String> grid, int bar, JsonNode overlay) {
        Map<String, String> out = new LinkedHashMap<>();
        JsonNode every = overlay == null ? null : overlay.get("*");
        for (var row : grid.entrySet()) {
            JsonNode over = overlay == null ? null : overlay.get(row.getKey());
            over = over == null ? every : over;
            out.put(
                    row.getKey(),
                    over == null ? slice(row.getValue(), bar) : overlay(row.getValue(), bar, over.asText()));
        }
        if (overlay != null) {
            for (var note : overlay.properties()) {
                if (!note.getKey().equals("*") && !out.containsKey(note.getKey())) {
                    String struck =
                            overlay("................", 0, note.getValue().asText());
                    if (struck.chars().anyMatch(c -> c >= '1' && c <= '9')) {
                        out.put(note.getKey(), struck);
                    }
                }
            }
        }
        return out;
    }

    /** The 16 steps of {@code bar} in a pattern that spans one bar or more. */
    static String slice(String pattern, int bar) {
        int span = Math.max(1, pattern.length() / 16);
        int offset = 16 * (bar % span);
        StringBuilder out = new StringBuilder(16);
        for (int i = 0; i < 16; i++) {
            out.append(pattern.charAt((offset + i) % pattern.length()));
        }
        return out.toString();
    }

    /**
     * Whether the arc lets a group play in a bar of a section: the intro brings layers in, the
     * outro takes them out, a long section rests some for a breakdown before its last phrase
     * ({@code calmThere}: the picture is no busier over those bars than over the section).
     */
    static boolean inArc(String group, Section section, int bar, int bars, boolean last, IntPredicate calmThere) {
        Arc arc = DATA.arc();
        if (arc == null) {
            return true;
        }
        if (arc.intro() != null
                && section.index() == 0
                && bars >= arc.intro().enterFrom()
                && arc.intro().enter() != null
                && bar < arc.intro().enter().getOrDefault(group, 0)) {
            return false;
        }
        if (arc.outro() != null
                && last
                && bars >= arc.outro().minBars()
                && arc.outro().leave() != null
                && arc.outro().leave().containsKey(group)
                && bar >= bars - arc.outro().leave().get(group)
                && bar < bars - 1) {
            return false;
        }
        if (arc.breakdown() != null
                && !last
                && bars >= arc.breakdown().minBars()
                && arc.breakdown().rest() != null
                && arc.breakdown().rest().containsKey(group)) {
            List<Integer> span = arc.breakdown().rest().get(group);
            int from = bars + span.get(0);
            int to = bars + span.get(1);
            if (bar >= from && bar < to) {
                for (int b = from; b < to; b++) {
                    if (!calmThere.test(b)) {
                        return true;
                    }
                }
                return false;
            }
        }
        return true;
    }

    private static File load() {
        String resource = "/styles/phrases.json";
        try (InputStream in = Phrasing.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no phrase data " + resource);
            }
            return Json.mapper().readValue(in, File.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }
}
