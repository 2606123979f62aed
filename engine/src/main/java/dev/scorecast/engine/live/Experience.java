package dev.scorecast.engine.live;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * A style of endless audio the player offers ({@code experience_id}): one genre of the catalogue at
 * a tempo, with or without the sung layer, starting at an intensity. {@code seed} starts its
 * musical randomness, so one experience always begins the same way; {@code gainDb} brings it to
 * {@link #TARGET_LUFS} (an ambient pad is 20 dB softer than a rock band as composed).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Experience(
        String id,
        String name,
        String description,
        String genre,
        double tempo,
        String mood,
        boolean vocals,
        double intensity,
        @JsonIgnore long seed,
        @JsonIgnore double gainDb) {

    /**
     * The loudness every experience is calibrated to (its {@code gain_db}), as the sync pipeline
     * masters to: a listener switching experiences keeps one volume.
     */
    public static final double TARGET_LUFS = -14;

    public Experience {
        if (id == null
                || id.isBlank()
                || name == null
                || genre == null
                || !(tempo >= 30 && tempo <= 300)
                || !(intensity >= 0 && intensity <= 1)
                || !(gainDb >= -24 && gainDb <= 24)) {
            throw new IllegalArgumentException(
                    "experience " + id + ": needs id, name, genre, tempo 30-300, intensity 0-1 and gain_db -24 to 24");
        }
    }
}
