package dev.scorecast.engine.plan;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The editable musical plan, version 1 (DESIGN.md §7; docs/PLAN.md describes each field): the one
 * model the sync pipeline and the live player both play. Immutable; serialised to JSON with
 * snake_case names by {@link PlanJson}. Times are seconds from the start of the video.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Plan(
        int version,
        String id,
        long seed,
        String genre,
        double duration,
        PlanOptions options,
        Master master,
        List<Section> sections,
        List<EditorMarker> markers,
        @JsonInclude(JsonInclude.Include.NON_NULL) Plan source) {

    public static final int VERSION = 1;

    public Plan {
        sections = sections == null ? List.of() : List.copyOf(sections);
        markers = markers == null ? List.of() : List.copyOf(markers);
    }

    /**
     * A plan that plays no earlier cut's music. {@code source} (issue 27, docs/EDITING.md "Follow a
     * re-cut"): the earlier cut's plan whose music the sections with an {@code origin} play again, or
     * null.
     */
    public Plan(
            int version,
            String id,
            long seed,
            String genre,
            double duration,
            PlanOptions options,
            Master master,
            List<Section> sections,
            List<EditorMarker> markers) {
        this(version, id, seed, genre, duration, options, master, sections, markers, null);
    }

    /** A plan without editor's markers. */
    public Plan(
            int version,
            String id,
            long seed,
            String genre,
            double duration,
            PlanOptions options,
            Master master,
            List<Section> sections) {
        this(version, id, seed, genre, duration, options, master, sections, List.of());
    }

    /** This plan under another id (the server assigns ids when it stores a plan). */
    public Plan withId(String id) {
        return new Plan(version, id, seed, genre, duration, options, master, sections, markers, source);
    }

    /** This plan with other sections, everything else the same. */
    public Plan withSections(List<Section> sections) {
        return new Plan(version, id, seed, genre, duration, options, master, sections, markers, source);
    }

    /** This plan with the editor's markers (docs/EDITING.md), everything else the same. */
    public Plan withMarkers(List<EditorMarker> markers) {
        return new Plan(version, id, seed, genre, duration, options, master, sections, markers, source);
    }

    /** This plan playing kept spans of {@code earlier}'s music (its sections with an origin). */
    public Plan withSource(Plan earlier) {
        return new Plan(version, id, seed, genre, duration, options, master, sections, markers, earlier);
    }

    /** How the finished audio is levelled: integrated loudness target (LUFS) and a gain on top (dB). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Master(double targetLufs, double gainDb) {
        public static final Master DEFAULT = new Master(-14, 0);
    }
}
