package dev.scorecast.engine.plan;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.scorecast.engine.error.ScorecastException.FieldProblem;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A moment the editor marked for the music (docs/EDITING.md): {@code time} seconds from the video's
 * first frame and what the music does there. The plan keeps them ({@code markers}) so the execution
 * can measure each on the rendered audio; {@link MarkerArrangement} writes them into the sections.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record EditorMarker(double time, Kind kind) {
    /** The most markers a plan takes: the sections' own cap on accents. */
    public static final int MAX = PlanValidator.MAX_HITS_PER_SECTION;

    /** What the music does at a marker. */
    public enum Kind {
        /** A strike on the moment. */
        HIT,
        /** A build into the moment, which it arrives on. */
        SWELL,
        /** The music stops: a last strike on the moment, then rest until a {@link #START}. */
        STOP,
        /** The music starts (again) on the moment, struck. */
        START,
        /** Into the full groove: a new section at full intensity, struck as a drop. */
        DROP,
        /** The music goes silent on the moment until a {@link #RESUME}. */
        MUTE_UNTIL,
        /** The music that was muted comes back on the moment, as it was. */
        RESUME;

        @JsonValue
        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** A kind by its wire name, or as an editor writes it in a marker's name: "Mute until", "mute-until", "DROP". */
        public static Optional<Kind> parse(String text) {
            if (text == null) {
                return Optional.empty();
            }
            String word =
                    text.strip().toLowerCase(Locale.ROOT).replace('-', '_').replace(' ', '_');
            return Arrays.stream(values())
                    .filter(k ->
                            k.wire().equals(word) || k.wire().replace("_", "").equals(word))
                    .findFirst();
        }

        @JsonCreator
        static Kind fromJson(String text) {
            return parse(text)
                    .orElseThrow(
                            () -> new IllegalArgumentException("kind must be one of " + names() + ", not " + text));
        }

        public static String names() {
            return String.join(", ", Arrays.stream(values()).map(Kind::wire).toList());
        }
    }

    /** Every problem of a plan's markers (counted, inside the video, a kind each), added to {@code problems}. */
    static void check(List<EditorMarker> markers, double duration, List<FieldProblem> problems) {
        if (markers.size() > MAX) {
            problems.add(new FieldProblem(
                    "markers", "markers holds " + markers.size() + " markers; at most " + MAX + " are accepted"));
            return;
        }
        for (int i = 0; i < markers.size(); i++) {
            EditorMarker m = markers.get(i);
            if (m.kind() == null) {
                problems.add(new FieldProblem("markers[" + i + "].kind", "kind must be one of " + Kind.names()));
            }
            if (!(m.time() >= 0 && m.time() < duration)) {
                problems.add(new FieldProblem(
                        "markers[" + i + "].time",
                        "time must be seconds inside the video, 0 to " + duration + ", not " + m.time()));
            }
        }
    }
}
