package dev.scorecast.engine.voice.singing;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.scorecast.engine.io.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/** The lyric grammar data ({@code voice/lyrics.json}; the format is described in its "comment"). */
@JsonIgnoreProperties(ignoreUnknown = true)
record LyricGrammar(
        Map<String, Words> moods, Map<String, List<String>> genres, List<String> templates, List<Rhyme> rhymes) {

    static final String RESOURCE = "/voice/lyrics.json";

    @JsonIgnoreProperties(ignoreUnknown = true)
    record Words(List<String> noun, List<String> adj, List<String> verb) {}

    @JsonIgnoreProperties(ignoreUnknown = true)
    record Rhyme(String sound, boolean open, List<String> noun, List<String> adj) {
        List<String> words(String kind) {
            return kind.equals("adj") ? adj : noun;
        }
    }

    static LyricGrammar load() {
        ObjectMapper json = Json.mapper();
        try (InputStream in = LyricGrammar.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(
                        "the lyric grammar " + RESOURCE + " is missing from the engine's resources");
            }
            LyricGrammar grammar = json.readValue(in, LyricGrammar.class);
            grammar.check();
            return grammar;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the lyric grammar " + RESOURCE, e);
        }
    }

    /** Data faults are found at load, not half-way through a song. */
    private void check() {
        for (String mood : LyricWriter.MOODS) {
            Words w = moods.get(mood);
            if (w == null || w.noun().isEmpty() || w.adj().isEmpty() || w.verb().isEmpty()) {
                throw new IllegalStateException(RESOURCE + ": mood '" + mood + "' needs nouns, adjectives and verbs");
            }
        }
        for (String t : templates) {
            if (!t.matches(".*\\{rhyme:(noun|adj)}$")) {
                throw new IllegalStateException(
                        RESOURCE + ": template '" + t + "' must end in {rhyme:noun} or {rhyme:adj}");
            }
        }
        for (Rhyme r : rhymes) {
            if (r.noun().size() < 2 || r.adj().size() < 2) {
                throw new IllegalStateException(
                        RESOURCE + ": rhyme '" + r.sound() + "' needs at least two nouns and two adjectives");
            }
        }
    }
}
