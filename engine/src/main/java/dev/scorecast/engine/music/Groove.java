package dev.scorecast.engine.music;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.scorecast.engine.io.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A groove template: how human drummers of the Groove MIDI Dataset (Magenta, CC BY 4.0) place and
 * weigh each hit, per drum voice and sixteenth, from {@code styles/grooves/<name>.json} (made by
 * bench's GrooveTemplates from the dataset's MIDI). Timing is in fractions of a sixteenth (positive
 * is late), so a template measured at 94 bpm carries over to 82. The composer replays the template's
 * eight recorded bars: a note takes the timing and relative weight its voice had on that step in
 * that bar, or, where the drummer played nothing there, the step's mean over every bar. Swing is the
 * genre's, not the drummer's: on odd sixteenths the template's own mean lateness is taken out.
 * A template may also hold drummers' one-bar fills ({@link DrumFill}), which the drums play at phrase
 * ends in place of the pattern's written fill.
 */
final class Groove {
    static final int STEPS = 16;
    /** The crash cymbal's General MIDI key: a fill names it "crash" (for timing and weight it goes with the kick). */
    private static final int CRASH = 49;
    /** A template hit softer than this is a ghost note. */
    static final int GHOST_VELOCITY = 50;
    /** The relative weight of one hit stays within these bounds (a rare, soft hit in the data is no reason for an inaudible one). */
    private static final double MIN_RATIO = 0.55;

    private static final double MAX_RATIO = 1.3;
    private static final ObjectMapper JSON = Json.mapper();
    private static final Map<String, Groove> LOADED = new ConcurrentHashMap<>();

    /** The drums a template knows (a drum kit's "voices"); every GM drum note is played as one of them. */
    enum Drum {
        KICK,
        SNARE,
        HAT,
        RIDE,
        TOM
    }

    private final String name;
    private final Data data;
    private final double[][] meanOffset = new double[Drum.values().length][STEPS];
    private final double[][] meanRatio = new double[Drum.values().length][STEPS];
    private final double[] oddLateness = new double[Drum.values().length];
    private final double[] evenLateness = new double[Drum.values().length];
    private final double[] drumVelocity = new double[Drum.values().length];
    private final List<DrumFill> fills;

    private Groove(String name, Data data) {
        this.name = name;
        this.data = data;
        if (data.bars() == null || data.bars().isEmpty() || data.voices() == null) {
            throw new IllegalStateException("groove template " + name + " has no bars or voices");
        }
        for (Drum v : Drum.values()) {
            DrumStats stats = data.voices().get(key(v));
            if (stats == null) {
                continue;
            }
            double weighted = 0;
            double rate = 0;
            double[] parity = new double[2];
            double[] parityRate = new double[2];
            for (int s = 0; s < STEPS; s++) {
                double r = stats.hitRate().get(s);
                weighted += r * stats.velocity().get(s);
                rate += r;
                parity[s % 2] += r * stats.offset().get(s);
                parityRate[s % 2] += r;
            }
            drumVelocity[v.ordinal()] = rate > 0 ? weighted / rate : 0;
            evenLateness[v.ordinal()] = parityRate[0] > 0 ? parity[0] / parityRate[0] : 0;
            oddLateness[v.ordinal()] = parityRate[1] > 0 ? parity[1] / parityRate[1] : 0;
            for (int s = 0; s < STEPS; s++) {
                boolean seen = stats.hitRate().get(s) > 0;
                meanOffset[v.ordinal()][s] = seen
                        ? stats.offset().get(s)
                        : (s % 2 == 0 ? evenLateness[v.ordinal()] : oddLateness[v.ordinal()]);
                meanRatio[v.ordinal()][s] = seen && drumVelocity[v.ordinal()] > 0
                        ? ratio(stats.velocity().get(s) / drumVelocity[v.ordinal()])
                        : 1;
            }
        }
        double pocket = 0;
        for (int step = 0; step < STEPS; step++) {
            pocket += ensembleOffset(step) / STEPS;
        }
        this.fills = fills(name, data.fills(), pocket);
    }

    /**
     * The template's fills, sparsest first, their swing taken out as the beat's is: every hit on an
     * odd sixteenth moves by the fills' mean lateness on even ones less that on odd ones; and each
     * fill is centred on {@code pocket} (the template's mean lateness of kick, snare and hats).
     */
    private static List<DrumFill> fills(String name, List<FillData> data, double pocket) {
        if (data == null) {
            return List.of();
        }
        double[] lateness = new double[2];
        int[] count = new int[2];
        for (FillData fill : data) {
            for (FillHit hit : fill.hits()) {
                String voice = hit.key() == CRASH ? "crash" : key(drum(hit.key()));
                if (hit.step() < 0 || hit.step() >= STEPS || !voice.equals(hit.voice())) {
                    throw new IllegalStateException("groove template " + name + ", fill " + fill.from() + ": " + hit
                            + " (key " + hit.key() + " is the " + voice + ", steps 0-15)");
                }
                lateness[hit.step() % 2] += hit.offset();
                count[hit.step() % 2]++;
            }
        }
        double swing = (count[1] == 0 ? 0 : lateness[1] / count[1]) - (count[0] == 0 ? 0 : lateness[0] / count[0]);
        List<DrumFill> out = new ArrayList<>();
        for (FillData fill : data) {
            List<DrumFill.Hit> hits = new ArrayList<>();
            for (FillHit hit : fill.hits()) {
                int s = hit.step();
                hits.add(new DrumFill.Hit(s, hit.key(), hit.offset() - (s % 2 == 1 ? swing : 0), hit.velocity()));
            }
            // The drummer's own lean over the whole fill (rushing it, or laying back) is taken out and the fill
            // sits in the template's pocket, where the band plays: what stays is how its hits move against each
            // other. A fill played 0.2 of a sixteenth ahead of the band would be heard as the drums running away
            // (and kept rock's and hip-hop's drums 19.1 ms off the grid, against HumanFeelTest's 20).
            double lean =
                    hits.stream().mapToDouble(DrumFill.Hit::offset).average().orElse(0);
            List<DrumFill.Hit> centred = hits.stream()
                    .map(h -> new DrumFill.Hit(h.step(), h.note(), h.offset() - lean + pocket, h.velocity()))
                    .sorted(Comparator.comparingInt(DrumFill.Hit::step).thenComparingInt(DrumFill.Hit::note))
                    .toList();
            out.add(new DrumFill(fill.from(), centred));
        }
        return DrumFill.sparsestFirst(out);
    }

    /** The template {@code styles/grooves/<name>.json}; a missing one is a bug in the style data. */
    static Groove named(String name) {
        return LOADED.computeIfAbsent(name, Groove::load);
    }

    private static Groove load(String name) {
        String resource = "/styles/grooves/" + name + ".json";
        try (InputStream in = Groove.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no groove template '" + name + "' (" + resource + ")");
            }
            return new Groove(name, JSON.readValue(in, Data.class));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read groove template " + resource, e);
        }
    }

    String name() {
        return name;
    }

    /** The drum a GM drum note plays as: crashes move with the kick they land with, shakers with the hats. */
    static Drum drum(int note) {
        return switch (note) {
            case 37, 38, 39, 40 -> Drum.SNARE;
            case 42, 44, 46, 54, 69, 70, 82 -> Drum.HAT;
            case 51, 53, 59 -> Drum.RIDE;
            case 41, 43, 45, 47, 48, 50 -> Drum.TOM;
            default -> Drum.KICK;
        };
    }

    /**
     * How late (fractions of a sixteenth) the drummer of this template played {@code drum} on
     * {@code step} of template bar {@code bar}, with the template's own swing taken out.
     */
    double offset(Drum drum, int bar, int step) {
        int s = Math.floorMod(step, STEPS);
        double[] hit = hit(drum, bar, s);
        double late = hit != null ? hit[0] : meanOffset[drum.ordinal()][s];
        if (s % 2 == 1) {
            late += evenLateness[drum.ordinal()] - oddLateness[drum.ordinal()];
        }
        return late;
    }

    /** The weight of that hit against the drum's average hit (1 = average), within [0.55, 1.3]. */
    double velocityRatio(Drum drum, int bar, int step) {
        int s = Math.floorMod(step, STEPS);
        double[] hit = hit(drum, bar, s);
        if (hit == null || drumVelocity[drum.ordinal()] <= 0) {
            return meanRatio[drum.ordinal()][s];
        }
        return ratio(hit[1] / drumVelocity[drum.ordinal()]);
    }

    /** The band's pocket on a step: the mean lateness of kick, snare and hats there, swing taken out. */
    double ensembleOffset(int step) {
        int s = Math.floorMod(step, STEPS);
        double sum = 0;
        for (Drum v : List.of(Drum.KICK, Drum.SNARE, Drum.HAT)) {
            sum += meanOffset[v.ordinal()][s] + (s % 2 == 1 ? evenLateness[v.ordinal()] - oddLateness[v.ordinal()] : 0);
        }
        return sum / 3;
    }

    /** The accent shape of the hats on a step (1 = average), for parts that follow the drummer's weight. */
    double accent(int step) {
        return meanRatio[Drum.HAT.ordinal()][Math.floorMod(step, STEPS)];
    }

    /** The velocity of a ghost note the drummer played on the snare at this step of this template bar, or 0. */
    int ghost(int bar, int step) {
        double[] hit = hit(Drum.SNARE, bar, Math.floorMod(step, STEPS));
        return hit != null && hit[1] < GHOST_VELOCITY ? (int) hit[1] : 0;
    }

    int bars() {
        return data.bars().size();
    }

    /** The fills human drummers played in this template's idiom, sparsest first; empty where the genre keeps its written fill. */
    List<DrumFill> fills() {
        return fills;
    }

    /** Where this template comes from: its file, the dataset, its license and every performance it was taken from (beats, then fills). */
    GrooveSource source() {
        return source(List.of());
    }

    /** The same, naming which of this template's fills were played ({@code played}: every fill a score played). */
    GrooveSource source(List<Score.DrumFillPlayed> played) {
        Set<String> mine = new HashSet<>();
        fills.forEach(f -> mine.add(f.from()));
        List<String> fillsPlayed = played.stream()
                .map(Score.DrumFillPlayed::performance)
                .filter(mine::contains)
                .distinct()
                .toList();
        List<String> performances = new ArrayList<>(data.performances() == null ? List.of() : data.performances());
        fills.forEach(f -> performances.add(f.from()));
        return new GrooveSource(
                "styles/grooves/" + name + ".json", data.source(), data.license(), performances, fillsPlayed);
    }

    private double[] hit(Drum drum, int bar, int step) {
        Map<String, List<List<Double>>> b =
                data.bars().get(Math.floorMod(bar, data.bars().size()));
        List<List<Double>> row = b.get(key(drum));
        if (row == null || row.size() <= step || row.get(step) == null) {
            return null;
        }
        return new double[] {row.get(step).get(0), row.get(step).get(1)};
    }

    private static double ratio(double r) {
        return Math.clamp(r, MIN_RATIO, MAX_RATIO);
    }

    private static String key(Drum v) {
        return v.name().toLowerCase(Locale.ROOT);
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    record Data(
            String genre,
            String source,
            String license,
            List<String> performances,
            Map<String, DrumStats> voices,
            List<Map<String, List<List<Double>>>> bars,
            List<FillData> fills) {}

    /** One fill as the template holds it: the performance, its bar there (from 1), and its hits in step order. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record FillData(String from, int bar, List<FillHit> hits) {}

    /**
     * One hit of a fill: its sixteenth ({@code step} 0-15), the drum ({@code voice}: the template's
     * name for it, or crash; {@code key}: its General MIDI key, which says which tom), its lateness in
     * fractions of a sixteenth (+ late) and its velocity as played.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record FillHit(int step, String voice, int key, double offset, int velocity) {}

    @JsonIgnoreProperties(ignoreUnknown = true)
    record DrumStats(
            List<Double> offset,
            List<Double> offsetSd,
            List<Double> velocity,
            List<Double> velocitySd,
            List<Double> hitRate,
            List<Double> ghostRate) {}
}
