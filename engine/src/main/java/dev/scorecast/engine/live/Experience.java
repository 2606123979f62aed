package dev.scorecast.engine.live;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * A style of endless audio the player offers ({@code experience_id}): one genre of the catalogue at
 * a tempo, with or without the sung layer, starting at an intensity. {@code seed} starts its
 * musical randomness, so one experience always begins the same way.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Experience(String id, String name, String description, String genre, double tempo, String mood, boolean vocals,
                         double intensity, @JsonIgnore long seed) {

    public Experience {
        if (id == null || id.isBlank() || name == null || genre == null || !(tempo >= 30 && tempo <= 300)
                || !(intensity >= 0 && intensity <= 1)) {
            throw new IllegalArgumentException("experience " + id + ": needs id, name, genre, tempo 30-300 and intensity 0-1");
        }
    }
}
