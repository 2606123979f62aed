package dev.scorecast.engine.plan;

import dev.scorecast.engine.error.Unprocessable;
import dev.scorecast.engine.plan.EditorMarker.Kind;
import dev.scorecast.engine.plan.Section.Hit;
import dev.scorecast.engine.plan.Section.Instrument;
import dev.scorecast.engine.style.Genre;
import dev.scorecast.engine.style.GenreCatalog;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes the editor's markers into a planned piece (docs/EDITING.md), in the plan's own terms, so the
 * composer plays them like any other plan:
 *
 * <ul>
 *   <li>{@code hit}: an accent on the moment ({@code impact}), or the section's own hit when a section starts there;</li>
 *   <li>{@code drop}: a section starts on the moment at full intensity (label peak, every group the
 *       genre plays at the top level), its hit a {@code drop};</li>
 *   <li>{@code swell}: a section starts on the moment, struck ({@code impact}), and the section before
 *       it plays the effects, whose riser builds into it;</li>
 *   <li>{@code stop} ... {@code start} and {@code mute_until} ... {@code resume}: a rest, a section with
 *       no instruments. Its start is struck ({@code crash}: the drums before it end with a crash
 *       and kick on it, crash and stop), then nothing plays. {@code start} comes in on the music planned
 *       there, struck ({@code impact}); {@code resume} brings back the music that was muted, as it was
 *       (its key, chords, instruments, intensity), struck ({@code crash}). A {@code start} or
 *       {@code resume} with no stop before it rests from the first frame.</li>
 * </ul>
 *
 * <p>Sections on the planned cuts stay where they are unless a marker's boundary comes within
 * {@link #KEEP_CLEAR_SECONDS} of them; then the marker's boundary wins and the cut becomes an accent.
 * Every section is fitted again with whole bars (the planner's {@link SectionFitter#fit}), so each
 * boundary stays on a bar line. A pure function: the same plan and markers give the same plan.
 */
public final class MarkerArrangement {
    /** The shortest section a marker may make: one 4/4 bar at 240 bpm. */
    static final double MIN_SECTION_SECONDS = 1.0;
    /** The shortest rest: one 3/4 bar at 240 bpm. */
    static final double MIN_REST_SECONDS = 0.75;
    /** A planned section start this close to a marker's boundary gives way to it. */
    static final double KEEP_CLEAR_SECONDS = 1.5;
    /** Accents stay this far from their section's start and from each other (the planner's spacing). */
    static final double ACCENT_SPACING_SECONDS = 0.5;

    private final GenreCatalog genres;

    public MarkerArrangement(GenreCatalog genres) {
        this.genres = genres;
    }

    /** A rest between two markers: [start, end), opened by {@code opener} (null: from the first frame). */
    private record Rest(double start, double end, Integer opener, Integer closer, Kind closing) {}

    /** What starts a section at a marker's time. */
    private record Boundary(double time, Kind kind, int marker) {}

    /**
     * {@code plan} (from the planner, for a video at {@code fps}) with {@code markers} written into its
     * sections and kept as its {@code markers}, snapped to frames and in time order.
     *
     * @throws Unprocessable naming the marker ({@code markers[3]}) that cannot be honoured: inside a rest,
     *                       a rest or section too short, a start without a stop
     */
    public Plan apply(Plan plan, List<EditorMarker> markers, double fps) {
        if (markers == null || markers.isEmpty()) {
            return plan;
        }
        Genre genre =
                genres.find(plan.genre()).orElseThrow(() -> new IllegalStateException("unknown genre " + plan.genre()));
        double duration = plan.duration();
        if (markers.size() > EditorMarker.MAX) {
            throw new Unprocessable(
                    "markers", markers.size() + " markers were sent; at most " + EditorMarker.MAX + " are accepted");
        }
        List<EditorMarker> sorted = new ArrayList<>();
        for (int i = 0; i < markers.size(); i++) {
            EditorMarker m = markers.get(i);
            if (m == null || m.kind() == null) {
                throw new Unprocessable("markers[" + i + "].kind", "each marker needs a kind: one of " + Kind.names());
            }
            if (!(m.time() >= 0 && m.time() < duration)) {
                throw new Unprocessable(
                        "markers[" + i + "].time",
                        "time " + m.time() + " is outside the video (0 to " + duration
                                + " s); mark a moment inside it");
            }
            double snapped = Math.round(Math.round(m.time() * fps) / fps * 1e6) / 1e6;
            sorted.add(new EditorMarker(Math.min(snapped, duration - 1 / fps), m.kind()));
        }
        // Indices in error messages name the markers as sent.
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < sorted.size(); i++) {
            order.add(i);
        }
        order.sort(
                Comparator.comparingDouble((Integer i) -> sorted.get(i).time()).thenComparingInt(i -> i));

        List<Rest> rests = rests(sorted, order, duration);
        TreeMap<Double, Boundary> forced = new TreeMap<>();
        List<Integer> hits = new ArrayList<>();
        Boundary atZero = null;
        for (int i : order) {
            EditorMarker m = sorted.get(i);
            switch (m.kind()) {
                case HIT -> {
                    requireOutsideRests(m, i, rests);
                    hits.add(i);
                }
                case DROP, SWELL -> {
                    requireOutsideRests(m, i, rests);
                    if (m.time() < 1e-9) {
                        atZero = new Boundary(0, m.kind(), i);
                    } else {
                        addBoundary(forced, new Boundary(m.time(), m.kind(), i), sorted);
                    }
                }
                case STOP, START, MUTE_UNTIL, RESUME -> {}
            }
        }
        for (Rest r : rests) {
            if (r.opener() != null && r.start() > 1e-9) {
                addBoundary(
                        forced, new Boundary(r.start(), sorted.get(r.opener()).kind(), r.opener()), sorted);
            }
            if (r.closer() != null) {
                addBoundary(forced, new Boundary(r.end(), r.closing(), r.closer()), sorted);
            }
        }
        if (!forced.isEmpty() && duration - forced.lastKey() < MIN_SECTION_SECONDS) {
            Boundary last = forced.lastEntry().getValue();
            throw new Unprocessable(
                    "markers[" + last.marker() + "].time",
                    "a " + last.kind().wire() + " at " + last.time()
                            + " s leaves " + round3(duration - last.time())
                            + " s of music to the end; the shortest section is "
                            + MIN_SECTION_SECONDS + " s");
        }
        if (!forced.isEmpty() && forced.firstKey() < MIN_SECTION_SECONDS && !inRest(0, rests)) {
            Boundary first = forced.firstEntry().getValue();
            throw new Unprocessable(
                    "markers[" + first.marker() + "].time",
                    "a " + first.kind().wire() + " at " + first.time()
                            + " s leaves " + first.time() + " s of music before it; the shortest section is "
                            + MIN_SECTION_SECONDS
                            + " s (mark 0 for the very start)");
        }

        List<Section> planned = plan.sections();
        // The planned starts that stay: clear of every marker's boundary and outside the rests.
        TreeMap<Double, Boundary> starts = new TreeMap<>();
        List<Hit> displaced = new ArrayList<>();
        for (Section s : planned) {
            if (s.start() < 1e-9) {
                continue;
            }
            boolean clear = forced.keySet().stream().allMatch(t -> Math.abs(t - s.start()) >= KEEP_CLEAR_SECONDS)
                    && !inRest(s.start(), rests);
            if (clear) {
                starts.put(s.start(), null);
            } else if (s.hit() != null && !s.hit().kind().equals("swell")) {
                displaced.add(new Hit(s.start(), s.hit().kind()));
            }
        }
        starts.putAll(forced);

        GenerationOptions options = options(plan);
        List<Double> times = new ArrayList<>(List.of(0.0));
        times.addAll(starts.keySet());
        List<Section> out = new ArrayList<>();
        for (int k = 0; k < times.size(); k++) {
            double a = times.get(k);
            double b = k + 1 < times.size() ? times.get(k + 1) : duration;
            Boundary why = k == 0 ? atZero : starts.get(a);
            Section source = sectionAt(planned, a);
            boolean silent = inRest(a, rests);
            if (why != null && why.kind() == Kind.RESUME) {
                // The muted music returns as it was: the section that played when the rest began.
                Rest rest = rests.stream()
                        .filter(r -> Math.abs(r.end() - a) < 1e-9)
                        .findFirst()
                        .orElseThrow();
                source = sectionAt(planned, Math.max(0, rest.start() - 1e-6));
            }
            out.add(section(genre, options, plan.seed(), source, a, b, why, silent, k == 0));
        }
        out = withAccents(out, planned, displaced, hits, sorted, rests);
        out = withVoiceover(out, planned);
        out = withRisersIntoSwells(out, genre, options, plan.seed());
        List<Section> numbered = new ArrayList<>();
        for (int i = 0; i < out.size(); i++) {
            Section s = out.get(i);
            numbered.add(s.withIndexAndResidual(i, round6(s.durationSeconds() - s.barsSeconds())));
        }
        List<EditorMarker> kept = order.stream().map(sorted::get).toList();
        return PlanValidator.validate(plan.withSections(numbered).withMarkers(kept), duration, genres);
    }

    /** The rests the stop/start and mute_until/resume markers make, in order; each at least {@link #MIN_REST_SECONDS}. */
    private static List<Rest> rests(List<EditorMarker> markers, List<Integer> order, double duration) {
        List<Rest> rests = new ArrayList<>();
        Integer open = null;
        boolean anyBefore = false;
        for (int i : order) {
            EditorMarker m = markers.get(i);
            switch (m.kind()) {
                case STOP, MUTE_UNTIL -> {
                    if (open != null) {
                        throw new Unprocessable(
                                "markers[" + i + "].kind",
                                "a " + m.kind().wire() + " at " + m.time()
                                        + " s comes while the music already rests (since the "
                                        + markers.get(open).kind().wire() + " at "
                                        + markers.get(open).time() + " s); put a "
                                        + closer(markers.get(open).kind()).wire() + " between them");
                    }
                    open = i;
                    anyBefore = true;
                }
                case START, RESUME -> {
                    if (open == null) {
                        if (anyBefore) {
                            throw new Unprocessable(
                                    "markers[" + i + "].kind",
                                    "a " + m.kind().wire() + " at " + m.time()
                                            + " s comes while the music plays; put a "
                                            + opener(m.kind()).wire() + " before it");
                        }
                        rests.add(rest(new Rest(0, m.time(), null, i, m.kind()), markers));
                    } else {
                        Kind expected = closer(markers.get(open).kind());
                        if (m.kind() != expected) {
                            throw new Unprocessable(
                                    "markers[" + i + "].kind",
                                    "a " + m.kind().wire() + " at " + m.time()
                                            + " s ends the "
                                            + markers.get(open).kind().wire() + " at "
                                            + markers.get(open).time()
                                            + " s; a "
                                            + markers.get(open).kind().wire() + " ends with a " + expected.wire());
                        }
                        rests.add(rest(new Rest(markers.get(open).time(), m.time(), open, i, m.kind()), markers));
                        open = null;
                    }
                    anyBefore = true;
                }
                case HIT, DROP, SWELL -> {}
            }
        }
        if (open != null) {
            rests.add(rest(new Rest(markers.get(open).time(), duration, open, null, null), markers));
        }
        return rests;
    }

    private static Rest rest(Rest r, List<EditorMarker> markers) {
        if (r.end() - r.start() < MIN_REST_SECONDS) {
            int at = r.closer() != null ? r.closer() : r.opener();
            throw new Unprocessable(
                    "markers[" + at + "].time",
                    "the rest from " + r.start() + " to " + r.end() + " s lasts " + round3(r.end() - r.start())
                            + " s; the shortest rest is " + MIN_REST_SECONDS + " s (one bar)");
        }
        return r;
    }

    private static Kind closer(Kind opener) {
        return opener == Kind.STOP ? Kind.START : Kind.RESUME;
    }

    private static Kind opener(Kind closer) {
        return closer == Kind.START ? Kind.STOP : Kind.MUTE_UNTIL;
    }

    private static void requireOutsideRests(EditorMarker m, int i, List<Rest> rests) {
        for (Rest r : rests) {
            if (m.time() >= r.start() - 1e-9 && m.time() < r.end() - 1e-9) {
                throw new Unprocessable(
                        "markers[" + i + "].time",
                        "a " + m.kind().wire() + " at " + m.time() + " s falls in the rest from " + r.start() + " to "
                                + r.end() + " s, where no music plays; move it out of the rest");
            }
        }
    }

    private static void addBoundary(TreeMap<Double, Boundary> forced, Boundary b, List<EditorMarker> markers) {
        var near = forced.floorEntry(b.time() + MIN_SECTION_SECONDS - 1e-9);
        var before = forced.ceilingEntry(b.time() - MIN_SECTION_SECONDS + 1e-9);
        for (var other : Arrays.asList(near, before)) {
            if (other != null && Math.abs(other.getKey() - b.time()) < MIN_SECTION_SECONDS) {
                throw new Unprocessable(
                        "markers[" + b.marker() + "].time",
                        "the " + b.kind().wire() + " at " + b.time() + " s and the "
                                + other.getValue().kind().wire() + " at " + other.getKey() + " s (markers["
                                + other.getValue().marker()
                                + "]) are " + round3(Math.abs(other.getKey() - b.time()))
                                + " s apart; sections they start need at least "
                                + MIN_SECTION_SECONDS + " s");
            }
        }
        forced.put(b.time(), b);
    }

    private static boolean inRest(double t, List<Rest> rests) {
        return rests.stream().anyMatch(r -> t >= r.start() - 1e-9 && t < r.end() - 1e-9);
    }

    private static Section sectionAt(List<Section> sections, double t) {
        Section found = sections.getFirst();
        for (Section s : sections) {
            if (s.start() <= t + 1e-9) {
                found = s;
            }
        }
        return found;
    }

    /** The section [a, b) after {@code source}'s character, fitted with whole bars, shaped by what starts it. */
    private Section section(
            Genre genre,
            GenerationOptions options,
            long seed,
            Section source,
            double a,
            double b,
            Boundary why,
            boolean silent,
            boolean first) {
        int beats = source.beatsPerBar();
        String meter = source.meter();
        double tempo = source.tempo();
        int bars = source.bars();
        boolean same = Math.abs(source.start() - a) < 1e-6 && Math.abs(source.end() - b) < 1e-6;
        if (!same) {
            SectionFitter.Fit fit =
                    SectionFitter.fit(b - a, genre.tempoMinBpm(), genre.tempoMaxBpm(), source.tempo(), beats);
            if (fit == null) {
                meter = "3/4";
                fit = SectionFitter.fit(b - a, genre.tempoMinBpm(), genre.tempoMaxBpm(), source.tempo(), 3);
            }
            if (fit == null) {
                throw new Unprocessable(
                        "markers", "a section from " + a + " to " + b + " s cannot hold one bar at 40 to 240 bpm");
            }
            tempo = Math.round(fit.tempo() * 1000) / 1000.0;
            bars = fit.bars();
        }
        String label = source.label();
        double intensity = source.intensity();
        Map<String, Instrument> instruments = source.instruments();
        Hit hit = same || Math.abs(source.start() - a) < 1e-6 ? source.hit() : null;
        if (hit == null && !first && !silent) {
            hit = new Hit(a, "crash"); // every boundary after the first is struck, as the planner does
        }
        if (why != null) {
            switch (why.kind()) {
                case DROP -> {
                    label = "peak";
                    intensity = 1.0;
                    instruments = Planner.instruments(genre, 1.0, label, options, seed, true, first);
                    hit = new Hit(a, "drop");
                }
                case SWELL -> hit = new Hit(a, "impact");
                case STOP, MUTE_UNTIL -> hit = new Hit(a, "crash");
                case START -> hit = new Hit(a, "impact");
                case RESUME -> hit = new Hit(a, "crash");
                case HIT -> {}
            }
        }
        if (silent) {
            instruments = Map.of();
            intensity = 0;
            if (why == null) {
                hit = null; // the music rests from the first frame: nothing to strike
            }
        }
        // The sung lines go with the part that starts where their section did; the spoken lines are placed afterwards.
        String lyrics = silent || Math.abs(source.start() - a) > 1e-6 ? null : source.lyrics();
        return new Section(
                0,
                a,
                b,
                label,
                tempo,
                meter,
                bars,
                0,
                source.key(),
                source.mode(),
                intensity,
                source.progression(),
                instruments,
                hit,
                lyrics,
                List.of(),
                List.of());
    }

    /**
     * The planned accents, the displaced cuts and the editor's hits, each in the section it falls in,
     * none in a rest, none within {@link #ACCENT_SPACING_SECONDS} of its section's start or of an
     * editor's hit (the editor's wins); an editor's hit on a section's start is that section's hit.
     */
    private static List<Section> withAccents(
            List<Section> sections,
            List<Section> planned,
            List<Hit> displaced,
            List<Integer> hits,
            List<EditorMarker> markers,
            List<Rest> rests) {
        List<Hit> editor =
                hits.stream().map(i -> new Hit(markers.get(i).time(), "impact")).toList();
        List<Hit> others = new ArrayList<>(displaced);
        planned.forEach(s -> others.addAll(s.accents()));
        List<Section> out = new ArrayList<>();
        for (Section s : sections) {
            if (s.instruments().isEmpty()) {
                out.add(s);
                continue;
            }
            Hit hit = s.hit();
            List<Hit> accents = new ArrayList<>();
            for (Hit h : editor) {
                if (h.time() >= s.start() - 1e-9 && h.time() < s.end() - 1e-9) {
                    if (h.time() - s.start() < ACCENT_SPACING_SECONDS) {
                        hit = new Hit(s.start(), hit != null && struck(hit) ? hit.kind() : "impact");
                    } else {
                        accents.add(h);
                    }
                }
            }
            for (Hit h : others) {
                boolean inside = h.time() - s.start() >= ACCENT_SPACING_SECONDS
                        && s.end() - h.time() >= ACCENT_SPACING_SECONDS / 2;
                boolean clear = editor.stream().noneMatch(e -> Math.abs(e.time() - h.time()) < ACCENT_SPACING_SECONDS)
                        && accents.stream().noneMatch(e -> Math.abs(e.time() - h.time()) < ACCENT_SPACING_SECONDS);
                if (inside && clear && !inRest(h.time(), rests)) {
                    accents.add(h);
                }
            }
            accents.sort(Comparator.comparingDouble(Hit::time));
            out.add(s.toBuilder().hit(hit).accents(accents).origin(null).build());
        }
        return out;
    }

    /** Every spoken line in the section its start falls in (the narrator speaks over rests too). */
    private static List<Section> withVoiceover(List<Section> sections, List<Section> planned) {
        List<Section.VoiceoverLine> lines = new ArrayList<>();
        planned.forEach(s -> lines.addAll(s.voiceover()));
        if (lines.isEmpty()) {
            return sections;
        }
        List<Section> out = new ArrayList<>();
        for (int i = 0; i < sections.size(); i++) {
            Section s = sections.get(i);
            boolean last = i == sections.size() - 1;
            out.add(s.withVoiceover(lines.stream()
                    .filter(l -> l.start() >= s.start() - 1e-9 && (l.start() < s.end() - 1e-9 || last))
                    .toList()));
        }
        return out;
    }

    private static boolean struck(Hit hit) {
        return !hit.kind().equals("swell");
    }

    /**
     * The section before a swell plays the effects (and the effects of any section with accents), whose
     * riser builds into the next section's start: the planner's instruments with accents to mark.
     */
    private static List<Section> withRisersIntoSwells(
            List<Section> sections, Genre genre, GenerationOptions options, long seed) {
        List<Section> out = new ArrayList<>(sections);
        for (int i = 0; i < out.size(); i++) {
            Section s = out.get(i);
            Section next = i + 1 < out.size() ? out.get(i + 1) : null;
            boolean intoStrike = next != null
                    && next.hit() != null
                    && next.hit().kind().equals("impact")
                    && !next.instruments().isEmpty();
            boolean needsFx = !s.instruments().isEmpty()
                    && !s.instruments().containsKey("fx")
                    && (intoStrike || !s.accents().isEmpty());
            if (needsFx) {
                Instrument fx = Planner.instruments(genre, s.intensity(), s.label(), options, seed, true, i == 0)
                        .get("fx");
                if (fx != null) {
                    Map<String, Instrument> with = new LinkedHashMap<>(s.instruments());
                    with.put("fx", fx);
                    out.set(i, s.toBuilder().instruments(with).origin(null).build());
                }
            }
        }
        return out;
    }

    /** The generation options a plan was made with, for choosing instruments the planner's way. */
    private static GenerationOptions options(Plan plan) {
        PlanOptions o = plan.options() == null ? PlanOptions.DEFAULT : plan.options();
        return GenerationOptions.DEFAULT
                .withVocals(o.vocals())
                .withVoiceover(o.voiceover())
                .withInstrument(o.instrument())
                .withGenre(plan.genre())
                .withOriginalAudio(o.originalAudio())
                .withOriginalAudioVoiceover(o.originalAudioVoiceover())
                .withDucking(o.ducking())
                .withMultitrack(o.multitrack())
                .withSeed(plan.seed());
    }

    private static double round3(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    private static double round6(double v) {
        return Math.round(v * 1e6) / 1e6;
    }
}
