package dev.scorecast.engine.style;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * One style from {@code styles/genres.json}. Tempo in beats per minute; mood on the same
 * valence/arousal axes as the analysis, so that a video's mood can pick the nearest genre.
 * {@code arrangement} is what the planner needs (keys, progressions, instrument palettes); it is
 * read from the file but left out when a genre is written as JSON (GET genres shows the rest).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Genre(
        String id,
        String name,
        String description,
        List<Double> tempo,
        Mood mood,
        @JsonProperty("dialogue_friendly") boolean dialogueFriendly,
        boolean vocals,

        @JsonProperty(value = "arrangement", access = JsonProperty.Access.WRITE_ONLY)
        Arrangement arrangement) {

    public Genre {
        if (tempo == null || tempo.size() != 2 || !(tempo.get(0) > 0) || tempo.get(1) < tempo.get(0)) {
            throw new IllegalArgumentException("genre " + id + ": tempo must be [min, max] beats per minute");
        }
        tempo = List.copyOf(tempo);
        if (arrangement == null) {
            throw new IllegalArgumentException("genre " + id + ": the arrangement (planner data) is missing");
        }
    }

    public double tempoMinBpm() {
        return tempo.get(0);
    }

    public double tempoMaxBpm() {
        return tempo.get(1);
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Mood(double valence, double arousal) {}
}
