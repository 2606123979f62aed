package dev.scorecast.engine.music;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.scorecast.engine.instruments.BankCatalog;
import dev.scorecast.engine.io.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The composer's style data: one {@code styles/patterns/<genre>.json} per genre (docs/STYLES.md
 * describes the format), read on first use and kept. A pattern id "genre/group/level" that the
 * data does not declare is a bug of whoever wrote the plan: {@link IllegalStateException}.
 */
final class StyleBook {
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
    static final List<String> GROUPS = List.of("beats", "bass", "harmony", "pads", "tops", "melody", "fx");

    private static final StyleBook BUILT_IN = new StyleBook();
    private static final ObjectMapper JSON = Json.mapper();

    private final Map<String, GenreStyle> genres = new ConcurrentHashMap<>();

    static StyleBook builtIn() {
        return BUILT_IN;
    }

    GenreStyle genre(String genre) {
        return genres.computeIfAbsent(genre, StyleBook::load);
    }

    /** The data behind a pattern id "genre/group/level". */
    Pattern pattern(String id) {
        String[] parts = id == null ? new String[0] : id.split("/");
        if (parts.length != 3 || !parts[2].matches("[0-3]")) {
            throw new IllegalStateException("pattern id '" + id + "' is not of the form <genre>/<group>/<level 0-3>");
        }
        GenreStyle style = genre(parts[0]);
        GroupStyle group = style.groups() == null ? null : style.groups().get(parts[1]);
        int level = Integer.parseInt(parts[2]);
        if (group == null || group.levels() == null || group.levels().size() <= level) {
            throw new IllegalStateException(
                    "pattern '" + id + "' is not declared in styles/patterns/" + parts[0] + ".json");
        }
        return new Pattern(id, style, group, group.levels().get(level), level);
    }

    private static GenreStyle load(String genre) {
        String resource = "/styles/patterns/" + genre + ".json";
        try (InputStream in = StyleBook.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no style data for genre '" + genre + "' (" + resource + ")");
            }
            return JSON.readValue(in, GenreStyle.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read style data " + resource, e);
        }
    }

    /** One resolved pattern id. */
    record Pattern(String id, GenreStyle style, GroupStyle group, Level level, int levelIndex) {}

    @JsonIgnoreProperties(ignoreUnknown = true)
    record GenreStyle(
            String genre,
            Feel feel,
            double harmonicRhythm,
            Map<String, String> cadence,
            Map<String, GroupStyle> groups) {
        Feel feelOrDefault() {
            return feel == null ? new Feel(0, null, 0, 0, false, 0) : feel;
        }

        double chordsPerBar() {
            return harmonicRhythm > 0 ? harmonicRhythm : 1;
        }

        /** The chord before the final tonic in this mode (V when the data says nothing). */
        String preCadence(String mode) {
            return cadence == null ? "V" : cadence.getOrDefault(mode, cadence.getOrDefault("default", "V"));
        }
    }

    /**
     * How the genre is played. swing: delay of every second 16th, as a fraction of a 16th (0.3 is a
     * swing ratio of 0.65). groove: the template in styles/grooves whose drummers' timing and weight
     * the parts take; timing and dynamics scale how much of it (0 = on the grid and flat, 1 = as
     * the drummers played). ghosts: the snare's ghost notes of the template are played too.
     * strum_ms: the spread of a strummed chord, low string to high (0 = struck together).
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Feel(double swing, String groove, double timing, double dynamics, boolean ghosts, double strumMs) {
        Groove template() {
            return groove == null ? null : Groove.named(groove);
        }
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    record GroupStyle(
            List<Integer> register,
            String voicing,
            String color,
            Map<String, String> fill,
            Double stepRatio,
            Integer motifBars,
            Integer phraseBars,
            Double syncopation,
            Sound riserSound,
            Sound impactSound,
            Integer velocity,
            List<Level> levels,
            Double riserSeconds,
            List<String> forms,
            Map<String, JsonNode> variants,
            String pedal) {
        int lo(int fallback) {
            return register == null ? fallback : register.get(0);
        }

        int hi(int fallback) {
            return register == null ? fallback : register.get(1);
        }
    }

    /**
     * A sound of a bank other than the part's own, as a palette names it (the fx group's riser and
     * impact: bank 'fx' of instruments/banks.json, or a GM program of bank 'musescore').
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Sound(String bank, int program) {
        /** The sound's address in the SoundBank, 128 x bank + program. */
        int address() {
            return BankCatalog.address(bank, program);
        }
    }

    /** One intensity level of a group; each group reads the fields it needs (docs/STYLES.md). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Level(
            Map<String, String> grid,
            String rhythm,
            String pattern,
            Integer voices,
            Double density,
            Double gate,
            Boolean riser,
            Boolean impact,
            Double riserBeats,
            Integer velocity,
            String voicing,
            Boolean octave,
            Map<String, JsonNode> variants) {}
}
