package dev.scorecast.engine.plan;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
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
        List<EditorMarker> markers) {

    public static final int VERSION = 1;

    public Plan {
        sections = sections == null ? List.of() : List.copyOf(sections);
        markers = markers == null ? List.of() : List.copyOf(markers);
    }

    /** A plan without editor's markers. */
    public Plan(int version, String id, long seed, String genre, double duration, PlanOptions options, Master master,
                List<Section> sections) {
        this(version, id, seed, genre, duration, options, master, sections, List.of());
    }

    /** This plan under another id (the server assigns ids when it stores a plan). */
    public Plan withId(String id) {
        return new Plan(version, id, seed, genre, duration, options, master, sections, markers);
    }

    /** This plan with other sections, everything else the same. */
    public Plan withSections(List<Section> sections) {
        return new Plan(version, id, seed, genre, duration, options, master, sections, markers);
    }

    /** This plan with the editor's markers (docs/EDITING.md), everything else the same. */
    public Plan withMarkers(List<EditorMarker> markers) {
        return new Plan(version, id, seed, genre, duration, options, master, sections, markers);
    }

    /** How the finished audio is levelled: integrated loudness target (LUFS) and a gain on top (dB). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Master(double targetLufs, double gainDb) {
        public static final Master DEFAULT = new Master(-14, 0);
    }
}
