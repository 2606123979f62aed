package dev.scorecast.server.api;

import dev.scorecast.engine.conform.ConformedScore;
import dev.scorecast.engine.conform.Conformer.ConformSpan;
import dev.scorecast.engine.plan.Plan;
import java.util.List;

/**
 * The {@code conform} object of {@code /sync/conform}: every span of the old and the new cut with
 * what happened to it, and how many of each kind; and every join of music of two origins with the
 * transition that bridges it (docs/EDITING.md, "The music").
 */
record ConformReport(
        int kept,
        int moved,
        int trimmed,
        int removed,

        @com.fasterxml.jackson.annotation.JsonProperty("new")
        int added,

        List<ConformSpan> spans,
        List<Transition> transitions) {

    /**
     * A join {@code at} a cut of the new video (or on the kept music's beat just before one): the
     * outgoing music stops on its beat at {@code from}, the incoming starts on its beat at {@code to},
     * and between them {@code beats} beats at {@code tempo} bpm (none, tempo null, where the join is
     * on the beat of both).
     */
    record Transition(double at, double from, double to, int beats, Double tempo) {}

    static ConformReport of(List<ConformSpan> spans, Plan plan) {
        List<Transition> transitions = ConformedScore.bridges(plan).stream()
                .map(b -> new Transition(
                        round(b.cut()),
                        round(b.from()),
                        round(b.to()),
                        b.beats(),
                        b.onTheBeat() ? null : Math.round(b.tempo() * 10) / 10.0))
                .toList();
        return new ConformReport(
                count(spans, "kept"),
                count(spans, "moved"),
                count(spans, "trimmed"),
                count(spans, "removed"),
                count(spans, "new"),
                spans,
                transitions);
    }

    private static double round(double t) {
        return Math.round(t * 1000) / 1000.0;
    }

    private static int count(List<ConformSpan> spans, String kind) {
        return (int) spans.stream().filter(s -> s.kind().equals(kind)).count();
    }
}
