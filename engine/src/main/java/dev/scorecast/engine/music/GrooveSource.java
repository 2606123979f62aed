package dev.scorecast.engine.music;

import java.util.List;

/**
 * A groove template the music took its drummers' timing, weight and fills from, as results.json's
 * provenance names it: {@code data} the template ({@code styles/grooves/<name>.json}), the dataset it
 * was derived from ({@code source}), its {@code license}, and the dataset's {@code performances} it
 * was taken from (the beats, then the fills).
 */
public record GrooveSource(String data, String source, String license, List<String> performances) {
    public GrooveSource {
        performances = List.copyOf(performances);
    }
}
