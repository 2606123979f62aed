package dev.scorecast.engine.voice.singing;

import java.util.List;

/** A section's lyrics, one sung line each; {@link #text()} joins them with newlines. */
public record Lyrics(List<String> lines) {

    public Lyrics {
        lines = List.copyOf(lines);
    }

    public String text() {
        return String.join("\n", lines);
    }

    /** Every line's syllables, hyphenated as {@link SungNote#syllable()} wants them. */
    public List<List<String>> syllables() {
        return lines.stream().map(Syllabifier::syllables).toList();
    }
}
