package dev.scorecast.engine.music;

import java.util.List;

/**
 * A groove template the music took its drummers' timing, weight and fills from, as results.json's
 * provenance names it: {@code data} the template ({@code styles/grooves/<name>.json}), the dataset it
 * was derived from ({@code source}), its {@code license}, and the dataset's {@code performances} it
 * was taken from (the beats, then the fills); {@code fillsPlayed}: the fills of those the drums
 * played in this music, in the order first played.
 */
public record GrooveSource(
        String data, String source, String license, List<String> performances, List<String> fillsPlayed) {
    public GrooveSource {
        performances = List.copyOf(performances);
        fillsPlayed = List.copyOf(fillsPlayed);
    }
}
