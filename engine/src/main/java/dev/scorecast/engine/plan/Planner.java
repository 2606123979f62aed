package dev.scorecast.engine.plan;

import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.analysis.Cut;
import dev.scorecast.engine.analysis.CutKind;
import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.Unprocessable;
import dev.scorecast.engine.plan.Section.Hit;
import dev.scorecast.engine.plan.Section.Instrument;
import dev.scorecast.engine.plan.SectionFitter.Stretch;
import dev.scorecast.engine.style.Arrangement;
import dev.scorecast.engine.style.Arrangement.GroupStyle;
import dev.scorecast.engine.style.Genre;
import dev.scorecast.engine.style.GenreCatalog;
import dev.scorecast.engine.style.Keys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * Analysis in, editable plan out (docs/PLAN.md): sections on chosen cuts, a steady tempo per
 * section that fills it with whole bars, labels and intensity from the energy curve, related keys,
 * progressions and instruments from the genre's data, and a hit on each section's first downbeat.
 * Deterministic: the same analysis, options and seed give the same plan.
 */
public final class Planner {
    private static final double DEFAULT_FPS = 25;
    /** A cut under the video's own words gives way to a cut between words this close to it. */
    static final double NEARBY_SECONDS = 1.0;

    private final GenreCatalog genres;

    public Planner(GenreCatalog genres) {
        this.genres = Objects.requireNonNull(genres, "genres");
    }

    public Plan plan(Analysis analysis, GenerationOptions options) {
        Objects.requireNonNull(analysis, "analysis");
        options = options == null ? GenerationOptions.DEFAULT : options;
        if (analysis.video() == null
                || !(analysis.video().duration() > 0)
                || !Double.isFinite(analysis.video().duration())) {
            throw new Unprocessable("video.duration", "the analysis has no video duration; analyse the video again");
        }
        Voices.requireScript(options);
        Genre genre = genre(analysis, options.genre());
        Arrangement style = genre.arrangement();
        long seed = options.seed() != null ? options.seed() : seedOf(analysis);
        double duration = analysis.video().duration();
        double fps = analysis.video().fps() > 0 ? analysis.video().fps() : DEFAULT_FPS;
        double baseTempo = baseTempo(analysis, genre);
        List<Cut> cuts = analysis.cuts() == null ? List.of() : analysis.cuts();
        if (options.originalAudioVoiceover()) {
            cuts = clearOfWords(cuts, analysis);
        }

        String meter = style.meters().getFirst();
        List<Stretch> stretches = SectionFitter.split(
                cuts,
                duration,
                fps,
                genre.tempoMinBpm(),
                genre.tempoMaxBpm(),
                baseTempo,
                beats(meter),
                style.phraseBars());
        if (stretches.isEmpty()) {
            meter = "3/4";
            stretches = SectionFitter.split(
                    List.of(),
                    duration,
                    fps,
                    genre.tempoMinBpm(),
                    genre.tempoMaxBpm(),
                    baseTempo,
                    3,
                    style.phraseBars());
        }
        if (stretches.isEmpty()) {
            throw new Unprocessable(
                    "video.duration",
                    "the video is " + duration + " s long; one bar of music needs at least 0.75 s"
                            + " (3 beats at 240 bpm), so there is nothing to score");
        }

        double[][] barIntensity = IntensityCurve.bars(stretches, analysis);
        double[] intensity =
                Arrays.stream(barIntensity).mapToDouble(IntensityCurve::section).toArray();
        String[] labels = labels(intensity);
        Analysis.Mood mood = analysis.mood() != null ? analysis.mood() : new Analysis.Mood(0.5, 0.5);
        String[][] keys = keys(style, mood.valence(), labels, new SplittableRandom(mix(seed, 1)));

        SplittableRandom chords = new SplittableRandom(mix(seed, 2));
        List<Section> sections = new ArrayList<>(stretches.size());
        List<String> previousProgression = null;
        for (int i = 0; i < stretches.size(); i++) {
            Stretch s = stretches.get(i);
            String key = keys[i][0];
            String mode = keys[i][1];
            List<List<String>> choices = style.progressions().get(mode).at(intensity[i]);
            List<String> progression =
                    previousProgression != null && choices.contains(previousProgression) && chords.nextDouble() < 0.6
                            ? previousProgression
                            : choices.get(chords.nextInt(choices.size()));
            previousProgression = progression;

            Map<String, Instrument> instruments = instruments(
                    genre,
                    intensity[i],
                    levels(barIntensity[i]),
                    labels[i],
                    options,
                    seed,
                    !s.inside().isEmpty(),
                    i == 0);
            double tempo = Math.round(s.tempo() * 1000) / 1000.0;
            double residual = round6((s.end() - s.start()) - s.bars() * beats(meter) * 60.0 / tempo);
            Hit hit = new Hit(s.start(), hitKind(i, intensity, labels[i], instruments, style));
            List<Hit> accents = s.inside().stream()
                    .map(c -> new Hit(c.time(), accentKind(c)))
                    .toList();
            sections.add(new Section(
                    i,
                    s.start(),
                    s.end(),
                    labels[i],
                    tempo,
                    meter,
                    s.bars(),
                    residual,
                    key,
                    mode,
                    intensity[i],
                    progression,
                    instruments,
                    hit,
                    null,
                    List.of(),
                    accents,
                    Arrays.stream(barIntensity[i]).boxed().toList()));
        }
        if (options.withVocals()) {
            sections = Voices.sing(sections, genre, mood, seed);
        }
        if (options.withVoiceover()) {
            sections = Voices.speak(sections, options, duration);
        }
        return new Plan(
                Plan.VERSION, null, seed, genre.id(), duration, options.planOptions(), Plan.Master.DEFAULT, sections);
    }

    /**
     * The cuts without those that fall inside the video's own speech and have a cut between words
     * within {@link #NEARBY_SECONDS}: a boundary or an accent there would put a hit on top of a
     * word, and the nearby cut serves the picture almost as well. A cut under words with no such
     * neighbour stays, since the picture's cut matters more than the word.
     */
    static List<Cut> clearOfWords(List<Cut> cuts, Analysis analysis) {
        if (analysis.audio() == null
                || analysis.audio().speech() == null
                || analysis.audio().speech().isEmpty()) {
            return cuts;
        }
        // Sorted and binary-searched, so this stays O((cuts + spans) log) on any input.
        double[][] words = mergedSpans(analysis.audio().speech());
        boolean[] under = new boolean[cuts.size()];
        double[] clear = new double[cuts.size()];
        int clearCount = 0;
        for (int i = 0; i < cuts.size(); i++) {
            under[i] = inside(words, cuts.get(i).time());
            if (!under[i]) {
                clear[clearCount++] = cuts.get(i).time();
            }
        }
        Arrays.sort(clear, 0, clearCount);
        List<Cut> out = new ArrayList<>(cuts.size());
        for (int i = 0; i < cuts.size(); i++) {
            Cut c = cuts.get(i);
            if (!under[i] || !hasWithin(clear, clearCount, c.time(), NEARBY_SECONDS)) {
                out.add(c);
            }
        }
        return out;
    }

    /** The spans sorted by start with overlapping ones joined: {starts, ends}. */
    private static double[][] mergedSpans(List<Span> spans) {
        var sorted =
                spans.stream().sorted(Comparator.comparingDouble(Span::start)).toList();
        double[] starts = new double[sorted.size()];
        double[] ends = new double[sorted.size()];
        int n = 0;
        for (var s : sorted) {
            if (n > 0 && s.start() < ends[n - 1]) {
                ends[n - 1] = Math.max(ends[n - 1], s.end());
            } else {
                starts[n] = s.start();
                ends[n] = s.end();
                n++;
            }
        }
        return new double[][] {Arrays.copyOf(starts, n), Arrays.copyOf(ends, n)};
    }

    /** Whether {@code t} is strictly inside one of the merged spans. */
    private static boolean inside(double[][] spans, double t) {
        int k = Arrays.binarySearch(spans[0], t);
        int candidate = k >= 0 ? k - 1 : -k - 2; // the last span starting strictly before t
        return candidate >= 0 && t > spans[0][candidate] && t < spans[1][candidate];
    }

    /** Whether the first {@code n} of the sorted {@code times} hold one within {@code distance} of {@code t}. */
    private static boolean hasWithin(double[] times, int n, double t, double distance) {
        int k = Arrays.binarySearch(times, 0, n, t - distance);
        int first = k >= 0 ? k : -k - 1;
        return first < n && times[first] <= t + distance;
    }

    /** The genre asked for, else the analysis' suggestion, else the one nearest the mood. */
    private Genre genre(Analysis analysis, String asked) {
        if (asked != null) {
            return genres.find(asked)
                    .orElseThrow(() -> new InvalidParameter(
                            "genre",
                            "genre '" + asked + "' is not one of "
                                    + String.join(
                                            ", ",
                                            genres.all().stream().map(Genre::id).toList())
                                    + "; leave it out to have it chosen from the analysis"));
        }
        if (analysis.suggestions() != null && analysis.suggestions().genre() != null) {
            var suggested = genres.find(analysis.suggestions().genre());
            if (suggested.isPresent()) {
                return suggested.get();
            }
        }
        Analysis.Mood mood = analysis.mood() != null ? analysis.mood() : new Analysis.Mood(0.5, 0.5);
        return genres.all().stream()
                .min(Comparator.comparingDouble((Genre g) -> Math.hypot(
                                g.mood().valence() - mood.valence(), g.mood().arousal() - mood.arousal()))
                        .thenComparing(Genre::id))
                .orElseThrow(() -> new IllegalStateException("the genre catalogue is empty"));
    }

    /** The suggested tempo when it is for this genre and inside its range, else the range scaled by arousal. */
    private static double baseTempo(Analysis analysis, Genre genre) {
        var suggestions = analysis.suggestions();
        if (suggestions != null
                && genre.id().equals(suggestions.genre())
                && suggestions.tempo() >= genre.tempoMinBpm()
                && suggestions.tempo() <= genre.tempoMaxBpm()) {
            return suggestions.tempo();
        }
        double arousal = analysis.mood() != null ? clamp(analysis.mood().arousal()) : 0.5;
        return genre.tempoMinBpm() + arousal * (genre.tempoMaxBpm() - genre.tempoMinBpm());
    }

    /**
     * Mean energy per section, blended half with its place between the quietest and the loudest
     * section of this video, so that every video uses the range and louder stretches stay louder.
     */
    static double[] intensities(List<Stretch> stretches, Analysis analysis) {
        double[] values = analysis.energy() != null && analysis.energy().values() != null
                ? analysis.energy().values()
                : new double[0];
        double hop = analysis.energy() != null && analysis.energy().hop() > 0
                ? analysis.energy().hop()
                : 0.1;
        double[] prefix = new double[values.length + 1];
        for (int k = 0; k < values.length; k++) {
            prefix[k + 1] = prefix[k] + (Double.isFinite(values[k]) ? clamp(values[k]) : 0);
        }
        int n = stretches.size();
        double[] mean = new double[n];
        for (int i = 0; i < n; i++) {
            Stretch s = stretches.get(i);
            int from = (int) Math.min(values.length, Math.max(0, Math.floor(s.start() / hop + 1e-9)));
            int to = (int) Math.min(values.length, Math.max(from + 1, Math.ceil(s.end() / hop - 1e-9)));
            mean[i] = from < to && to <= values.length ? (prefix[to] - prefix[from]) / (to - from) : 0.5;
        }
        double low = Arrays.stream(mean).min().orElse(0);
        double high = Arrays.stream(mean).max().orElse(0);
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            double place = high - low > 0.05 ? (mean[i] - low) / (high - low) : 0.5;
            out[i] = Math.round(clamp(0.5 * mean[i] + 0.5 * place) * 100) / 100.0;
        }
        return out;
    }

    /** intro first, outro last (three sections or more, unless it is the climax), peaks at the top of the curve, builds rising, breakdowns falling. */
    static String[] labels(double[] intensity) {
        int n = intensity.length;
        String[] labels = new String[n];
        double low = Arrays.stream(intensity).min().orElse(0);
        double high = Arrays.stream(intensity).max().orElse(0);
        for (int i = 0; i < n; i++) {
            double place = high - low > 0.05 ? (intensity[i] - low) / (high - low) : 0.5;
            if (n == 1) {
                labels[i] = intensity[i] >= 0.5 ? "peak" : "intro";
            } else if (i == 0) {
                labels[i] = "intro";
            } else if (i == n - 1 && (n >= 3 && place < 0.75 || intensity[i] <= intensity[i - 1])) {
                labels[i] = "outro";
            } else if (place >= 0.75) {
                labels[i] = "peak";
            } else {
                boolean rising = i + 1 < n && intensity[i + 1] > intensity[i] + 0.05;
                boolean falling = intensity[i] < intensity[i - 1] - 0.05;
                labels[i] = rising ? "build" : falling || place < 0.34 ? "breakdown" : "build";
            }
        }
        return labels;
    }

    /**
     * A home key from the genre's tonics for the mood's mode; intros, outros and peaks stay home,
     * breakdowns may move to the relative mode or a fourth up, builds may lean a fifth up, and the
     * last peak of a long video may lift a whole step (the rest stays there).
     */
    static String[][] keys(Arrangement style, double valence, String[] labels, SplittableRandom random) {
        String mode = valence >= 0.5 ? style.modes().bright() : style.modes().dark();
        String other = mode.equals(style.modes().bright())
                ? style.modes().dark()
                : style.modes().bright();
        List<String> tonics = style.keys().get(mode);
        String home = tonics.get(random.nextInt(tonics.size()));
        int relativeShift = Keys.minorLike(mode) == Keys.minorLike(other) ? 0 : Keys.minorLike(mode) ? 3 : -3;
        int n = labels.length;
        int lastPeak = -1;
        for (int i = 0; i < n; i++) {
            if (labels[i].equals("peak")) {
                lastPeak = i;
            }
        }
        String[][] out = new String[n][];
        for (int i = 0; i < n; i++) {
            double roll = random.nextDouble();
            out[i] = switch (labels[i]) {
                case "breakdown" ->
                    roll < 0.45 && !other.equals(mode)
                            ? new String[] {Keys.transpose(home, relativeShift, other), other}
                            : roll < 0.7
                                    ? new String[] {Keys.transpose(home, 5, mode), mode}
                                    : new String[] {home, mode};
                case "build" ->
                    roll < 0.2 ? new String[] {Keys.transpose(home, 7, mode), mode} : new String[] {home, mode};
                case "peak" -> {
                    if (style.lift() && i == lastPeak && n >= 5 && i >= n / 2) {
                        home = Keys.transpose(home, 2, mode);
                    }
                    yield new String[] {home, mode};
                }
                default -> new String[] {home, mode};
            };
        }
        return out;
    }

    /** The groups of a section whose bars all play at {@code intensity} (the live player's sections). */
    static Map<String, Instrument> instruments(
            Genre genre,
            double intensity,
            String label,
            GenerationOptions options,
            long seed,
            boolean hasAccents,
            boolean first) {
        return instruments(genre, intensity, Set.of(level(intensity)), label, options, seed, hasAccents, first);
    }

    /** The pattern levels the bars of a section reach. */
    static Set<Integer> levels(double[] barIntensity) {
        Set<Integer> levels = new TreeSet<>();
        for (double v : barIntensity) {
            levels.add(level(v));
        }
        return levels;
    }

    /**
     * Every group the genre plays at one of the levels the section's bars reach (the composer
     * leaves a group out of the bars whose level it does not play at), vocals only when asked for;
     * the effects also where a boundary or a cut inside the section needs striking (every section
     * but the first, and any with accents), since they strike it when the drums are resting. Each
     * pattern names the level of the section's own intensity.
     */
    static Map<String, Instrument> instruments(
            Genre genre,
            double intensity,
            Set<Integer> barLevels,
            String label,
            GenerationOptions options,
            long seed,
            boolean hasAccents,
            boolean first) {
        int level = level(intensity);
        Map<String, Instrument> out = new LinkedHashMap<>();
        for (InstrumentGroup group : InstrumentGroup.values()) {
            if (group == InstrumentGroup.VOCALS && !options.withVocals()) {
                continue;
            }
            GroupStyle style = genre.arrangement().groups().get(group.wire());
            boolean marksAccents = group == InstrumentGroup.FX && (hasAccents || !first);
            if (style == null
                    || barLevels.stream().noneMatch(style::playsAt) && !style.playsAt(level) && !marksAccents) {
                continue;
            }
            var voice = style.palette().getFirst();
            String name = null;
            if (options.withInstrument()) {
                long pick = mix(mix(seed, group.ordinal() + 16), label.hashCode());
                voice = style.palette()
                        .get((int) Math.floorMod(pick, (long) style.palette().size()));
                name = voice.name();
            }
            out.put(
                    group.wire(),
                    new Instrument(
                            genre.id(),
                            voice.program(),
                            name,
                            style.gainDb(),
                            style.pan(),
                            genre.id() + "/" + group.wire() + "/" + level));
        }
        return out;
    }

    /** The pattern level of an intensity: 0 below 0.25, 1 below 0.5, 2 below 0.75, else 3. */
    public static int level(double intensity) {
        return intensity < 0.25 ? 0 : intensity < 0.5 ? 1 : intensity < 0.75 ? 2 : 3;
    }

    /** From the change of intensity into this section, then moved to a kind one of its groups marks. */
    private static String hitKind(
            int i, double[] intensity, String label, Map<String, Instrument> instruments, Arrangement style) {
        String kind;
        if (i == 0) {
            kind = intensity[0] >= 0.6 ? "impact" : "swell";
        } else {
            double change = intensity[i] - intensity[i - 1];
            // Every boundary after the first is struck (the downbeat accent on each cut);
            // a falling one gets the lightest strike, with the riser before it doing the swelling.
            kind = change >= 0.2 ? (label.equals("peak") ? "drop" : "impact") : "crash";
        }
        Set<String> marked = new LinkedHashSet<>();
        instruments.keySet().forEach(g -> marked.addAll(style.groups().get(g).hits()));
        if (marked.isEmpty() || marked.contains(kind) || kind.equals("crash") && i > 0) {
            // A crash is always available after the first section: the drums strike it, or the
            // previous section's drums do (crash and stop), with the effects' impact.
            return kind;
        }
        List<String> nearest = switch (kind) {
            case "drop" -> List.of("impact", "crash");
            case "impact" -> List.of("drop", "crash");
            case "crash" -> List.of("impact", "drop");
            default -> List.of("crash", "impact", "drop");
        };
        // After the first section only struck kinds are offered, so the fallback stays struck too.
        return nearest.stream().filter(marked::contains).findFirst().orElse(kind);
    }

    private static String accentKind(Cut cut) {
        return cut.kind() != CutKind.CUT ? "swell" : cut.strength() >= 0.6 ? "crash" : "impact";
    }

    /** A stable seed from what the analysis measured, kept within 53 bits so that JSON readers keep it exact. */
    static long seedOf(Analysis analysis) {
        long h = 0xcbf29ce484222325L;
        h = fnv(h, Double.doubleToLongBits(analysis.video().duration()));
        h = fnv(h, Double.doubleToLongBits(analysis.video().fps()));
        h = fnv(h, analysis.video().width() * 31L + analysis.video().height());
        if (analysis.cuts() != null) {
            for (Cut cut : analysis.cuts()) {
                h = fnv(h, Double.doubleToLongBits(cut.time()));
                h = fnv(h, Double.doubleToLongBits(cut.strength()) + cut.kind().ordinal());
            }
        }
        if (analysis.energy() != null && analysis.energy().values() != null) {
            for (double v : analysis.energy().values()) {
                h = fnv(h, Double.doubleToLongBits(v));
            }
        }
        if (analysis.mood() != null) {
            h = fnv(h, Double.doubleToLongBits(analysis.mood().valence()));
            h = fnv(h, Double.doubleToLongBits(analysis.mood().arousal()));
        }
        return mix(h, 0) & ((1L << 53) - 1);
    }

    private static long fnv(long h, long value) {
        for (int b = 0; b < 8; b++) {
            h ^= (value >>> (8 * b)) & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }

    /** SplitMix64 of a seed and a salt: independent streams for independent choices. */
    static long mix(long seed, long salt) {
        long z = seed + 0x9e3779b97f4a7c15L * (salt + 1);
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    private static int beats(String meter) {
        return Integer.parseInt(meter.substring(0, meter.indexOf('/')));
    }

    private static double clamp(double v) {
        return Math.max(0, Math.min(1, v));
    }

    private static double round6(double v) {
        return Math.round(v * 1e6) / 1e6;
    }
}
