package dev.scorecast.server.api;

import dev.scorecast.engine.conform.Conformer.ConformSpan;
import java.util.List;

/**
 * The {@code conform} object of {@code /sync/conform}: every span of the old and the new cut with
 * what happened to it, and how many of each kind.
 */
record ConformReport(int kept, int moved, int trimmed, int removed, @com.fasterxml.jackson.annotation.JsonProperty("new") int added,
                     List<ConformSpan> spans) {

    static ConformReport of(List<ConformSpan> spans) {
        return new ConformReport(count(spans, "kept"), count(spans, "moved"), count(spans, "trimmed"), count(spans, "removed"),
                count(spans, "new"), spans);
    }

    private static int count(List<ConformSpan> spans, String kind) {
        return (int) spans.stream().filter(s -> s.kind().equals(kind)).count();
    }
}
