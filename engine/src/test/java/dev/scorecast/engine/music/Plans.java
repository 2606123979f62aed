package dev.scorecast.engine.music;

import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.PlanOptions;
import dev.scorecast.engine.plan.Section;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Hand-built plans for the composer tests, following the planner's conventions. */
final class Plans {
    static final List<String> GROUPS = List.of("beats", "bass", "harmony", "pads", "tops", "melody", "fx");
    static final double[][] SPANS = {{0, 12}, {12, 30}, {30, 45}, {45, 60}};
    static final String[] HITS = {null, "impact", "drop", "swell"};

    private Plans() {}

    static int level(double intensity) {
        return intensity < 0.25 ? 0 : intensity < 0.5 ? 1 : intensity < 0.75 ? 2 : 3;
    }

    static int program(String group) {
        return switch (group) {
            case "beats" -> 0;
            case "bass" -> 33;
            case "harmony" -> 4;
            case "pads" -> 89;
            case "tops" -> 46;
            case "melody" -> 80;
            default -> 119;
        };
    }

    /** A 60 s plan of four sections at the given intensities, every group sounding. */
    static Plan plan(String genre, long seed, double... intensities) {
        return plan(genre, seed, GROUPS, intensities);
    }

    static Plan plan(String genre, long seed, List<String> groups, double... intensities) {
        double bpm = StyleBookTempo.typical(genre);
        boolean minor = !List.of("pop", "corporate", "acoustic", "house").contains(genre);
        Section[] sections = new Section[SPANS.length];
        String[] keys = {"A", "C", "Eb", "F#"};
        for (int i = 0; i < SPANS.length; i++) {
            double start = SPANS[i][0];
            double end = SPANS[i][1];
            int bars = (int) Math.max(1, Math.round((end - start) * bpm / 240));
            double tempo = bars * 240 / (end - start);
            double intensity = intensities[i % intensities.length];
            Map<String, Section.Instrument> instruments = new LinkedHashMap<>();
            for (String g : groups) {
                instruments.put(
                        g,
                        new Section.Instrument(
                                genre, program(g), null, 0, 0, genre + "/" + g + "/" + level(intensity)));
            }
            List<String> progression = minor ? List.of("i", "VI", "III", "VII") : List.of("I", "V", "vi", "IV");
            Section.Hit hit = HITS[i] == null ? null : new Section.Hit(start, HITS[i]);
            sections[i] = new Section(
                    i,
                    start,
                    end,
                    "s" + i,
                    tempo,
                    "4/4",
                    bars,
                    0,
                    keys[i % keys.length],
                    minor ? "minor" : "major",
                    intensity,
                    i == 2 ? List.of("VI", "VII", "i7", "iv") : progression,
                    instruments,
                    hit,
                    null,
                    null);
            if (!minor && i == 2) {
                sections[i] = new Section(
                        i,
                        start,
                        end,
                        "s" + i,
                        tempo,
                        "4/4",
                        bars,
                        0,
                        "D",
                        "mixolydian",
                        intensity,
                        List.of("I", "VII", "IV", "I"),
                        instruments,
                        hit,
                        null,
                        null);
            }
        }
        return new Plan(1, "test", seed, genre, 60, PlanOptions.DEFAULT, Plan.Master.DEFAULT, List.of(sections));
    }

    /** Typical tempi of the genres (middle of styles/genres.json ranges). */
    static final class StyleBookTempo {
        static double typical(String genre) {
            return switch (genre) {
                case "deep" -> 120;
                case "cinematic" -> 90;
                case "ambient" -> 72;
                case "lofi" -> 82;
                case "house" -> 124;
                case "techno" -> 132;
                case "hip-hop" -> 92;
                case "rock" -> 128;
                case "pop" -> 110;
                case "acoustic" -> 96;
                case "orchestral" -> 90;
                default -> 110;
            };
        }
    }
}
