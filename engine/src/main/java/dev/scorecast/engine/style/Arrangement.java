package dev.scorecast.engine.style;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.scorecast.engine.instruments.BankCatalog;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A genre's planner data, the {@code arrangement} object of {@code styles/genres.json}: which keys
 * and modes it likes, how long its phrases are, its chord progressions and, per instrument group,
 * when the group plays and with what sound. Data, not code: docs/PLAN.md explains each field.
 *
 * @param keys         preferred tonics per mode (the first mode's list is tried first)
 * @param modes        the mode a bright (valence >= 0.5) and a dark video takes
 * @param meters       meters the genre plays in, the first the usual one
 * @param phraseBars   a long stretch without cuts is split into sections of about this many bars
 * @param lift         whether the last peak of a long video may rise a whole step
 * @param progressions per mode: chord progressions for low (intensity < 0.5) and high intensity
 * @param groups       per instrument group wire name ("beats", "bass", ...) its style
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Arrangement(
        Map<String, List<String>> keys,
        Modes modes,
        List<String> meters,
        @JsonProperty("phrase_bars") int phraseBars,
        boolean lift,
        Map<String, Progressions> progressions,
        Map<String, GroupStyle> groups) {

    static final Set<String> MODES = Set.of("major", "minor", "dorian", "mixolydian");
    static final Set<String> GROUPS = Set.of("beats", "bass", "harmony", "pads", "tops", "melody", "fx", "vocals");
    static final Set<String> HITS = Set.of("impact", "crash", "drop", "swell");

    public Arrangement {
        keys = Map.copyOf(require(keys, "keys"));
        require(modes, "modes");
        meters = List.copyOf(require(meters, "meters"));
        progressions = Map.copyOf(require(progressions, "progressions"));
        groups = Map.copyOf(require(groups, "groups"));
        for (String mode : List.of(modes.bright(), modes.dark())) {
            if (!MODES.contains(mode)) {
                throw new IllegalArgumentException("mode " + mode + " is not one of " + MODES);
            }
            if (keys.getOrDefault(mode, List.of()).isEmpty()) {
                throw new IllegalArgumentException("no keys for mode " + mode);
            }
            Progressions p = progressions.get(mode);
            if (p == null || p.low().isEmpty() || p.high().isEmpty()) {
                throw new IllegalArgumentException("mode " + mode + " needs low and high progressions");
            }
        }
        keys.values()
                .forEach(list -> list.forEach(k -> {
                    if (Keys.pitchClass(k) < 0) {
                        throw new IllegalArgumentException("key " + k + " is not a key name");
                    }
                }));
        progressions
                .values()
                .forEach(p -> Stream.concat(p.low().stream(), p.high().stream()).forEach(chords -> {
                    if (chords.isEmpty() || !chords.stream().allMatch(ChordSymbol::isValid)) {
                        throw new IllegalArgumentException("progression " + chords + " breaks the chord grammar");
                    }
                }));
        if (meters.isEmpty() || !meters.stream().allMatch(m -> m.equals("4/4") || m.equals("3/4") || m.equals("6/8"))) {
            throw new IllegalArgumentException("meters must be among 4/4, 3/4, 6/8: " + meters);
        }
        if (phraseBars < 2) {
            throw new IllegalArgumentException("phrase_bars must be at least 2");
        }
        if (!GROUPS.containsAll(groups.keySet())) {
            throw new IllegalArgumentException("unknown instrument group among " + groups.keySet());
        }
    }

    private static <T> T require(T value, String name) {
        if (value == null) {
            throw new IllegalArgumentException("arrangement." + name + " is missing");
        }
        return value;
    }

    /** The mode for a bright (happy) and for a dark (sad) video. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Modes(String bright, String dark) {}

    /** Progressions for quiet (intensity below 0.5) and for loud sections. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Progressions(List<List<String>> low, List<List<String>> high) {
        public Progressions {
            low = low == null ? List.of() : low.stream().map(List::copyOf).toList();
            high = high == null ? List.of() : high.stream().map(List::copyOf).toList();
        }

        public List<List<String>> at(double intensity) {
            return intensity < 0.5 ? low : high;
        }
    }

    /**
     * One instrument group in this genre: the intensity levels (0-3) at which it plays, its gain
     * (dB) and pan (-1 left .. 1 right), its palette (the first entry is the default sound) and the
     * hit kinds it marks.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record GroupStyle(
            List<Integer> levels,
            @JsonProperty("gain_db") double gainDb,
            double pan,
            List<Sound> palette,
            List<String> hits) {
        public GroupStyle {
            levels = List.copyOf(levels == null ? List.of() : levels);
            palette = List.copyOf(palette == null ? List.of() : palette);
            hits = List.copyOf(hits == null ? List.of() : hits);
            if (palette.isEmpty()) {
                throw new IllegalArgumentException("a group needs at least one palette entry");
            }
            if (!levels.stream().allMatch(l -> l >= 0 && l <= 3)) {
                throw new IllegalArgumentException("levels must be 0 to 3: " + levels);
            }
            if (!HITS.containsAll(hits)) {
                throw new IllegalArgumentException("hits must be among " + HITS + ": " + hits);
            }
            if (gainDb < -60 || gainDb > 12 || pan < -1 || pan > 1) {
                throw new IllegalArgumentException("gain_db -60..12 and pan -1..1");
            }
        }

        public boolean playsAt(int level) {
            return levels.contains(level);
        }
    }

    /**
     * A named sound: {@code program} is its address in the sound banks, 128 x bank + program
     * (0-127: a General MIDI program of the default bank; for beats a kit). In the style data a
     * palette entry names its bank by id ({@code "bank": "electronic"}, see instruments/banks.json)
     * and its program within that bank. {@code legato}: a single-line instrument (a wind, a bowed
     * string, a lead) whose connected notes are slurred, one note passing into the next without a new
     * attack (music.Legato).
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Sound(String name, int program, boolean legato) {
        public Sound {
            if (name == null || name.isBlank() || !BankCatalog.known(program)) {
                throw new IllegalArgumentException("a palette entry needs a name and a program 0-127 of a known bank");
            }
        }

        /** A sound whose notes are struck one by one. */
        public Sound(String name, int program) {
            this(name, program, false);
        }

        @JsonCreator
        static Sound of(
                @JsonProperty("name") String name,
                @JsonProperty("bank") String bank,
                @JsonProperty("program") int program,
                @JsonProperty("legato") Boolean legato) {
            return new Sound(name, BankCatalog.address(bank, program), Boolean.TRUE.equals(legato));
        }
    }
}
