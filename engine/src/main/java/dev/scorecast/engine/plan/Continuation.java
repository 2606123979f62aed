package dev.scorecast.engine.plan;

import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.plan.Section.Hit;
import dev.scorecast.engine.plan.Section.Instrument;
import dev.scorecast.engine.style.Arrangement;
import dev.scorecast.engine.style.Genre;
import dev.scorecast.engine.style.Keys;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The live player's planner (docs/PLAYER.md): endless music as one section after another, each 8
 * to 16 bars, written from the same genre data and by the same rules as {@link Planner} (keys,
 * progressions, the instruments that play at an intensity, sung lines). Intensity breathes around
 * the level asked for, the key now and then moves to a related one and comes home, so the music
 * keeps changing and never repeats a section exactly. Pure: the same inputs give the same section.
 */
public final class Continuation {
    private static final String[] LABEL_CYCLE = {"build", "peak", "breakdown", "build", "peak", "outro"};

    private Continuation() {}

    /** Where the music is: what the next section continues from. */
    public record State(int index, String home, String key, String mode, List<String> progression) {}

    /**
     * The section after {@code previous} (null: the first one) for {@code genre} around
     * {@code intensity} at {@code tempo}. {@code withVocals}: the section carries a sung line and
     * the vocals group (the player decides whether to let it sound).
     */
    public static Section next(
            Genre genre, State previous, double tempo, double intensity, boolean withVocals, long seed) {
        Arrangement style = genre.arrangement();
        int index = previous == null ? 0 : previous.index() + 1;
        SplittableRandom rng = new SplittableRandom(Planner.mix(seed, 1000 + index));
        String meter = style.meters().getFirst();
        int bars = rng.nextDouble() < 0.5 ? 8 : rng.nextDouble() < 0.5 ? 12 : 16;
        String label = index == 0 ? "intro" : LABEL_CYCLE[(index - 1) % LABEL_CYCLE.length];
        // Breathing: the label lifts or lowers the asked-for intensity, plus a little randomness.
        double lift = switch (label) {
            case "peak" -> 0.18;
            case "breakdown", "outro" -> -0.2;
            case "intro" -> -0.1;
            default -> 0.05;
        };
        double level = Math.round(Math.clamp(intensity + lift + (rng.nextDouble() - 0.5) * 0.1, 0, 1) * 100) / 100.0;
        String mode;
        String home;
        String key;
        if (previous == null) {
            mode = style.modes().dark();
            List<String> tonics = style.keys().get(mode);
            home = tonics.get(rng.nextInt(tonics.size()));
            key = home;
        } else {
            home = previous.home();
            mode = previous.mode();
            // Away from home at most one section; otherwise now and then a fourth or a fifth up.
            double roll = rng.nextDouble();
            key = !previous.key().equals(home)
                    ? home
                    : label.equals("breakdown") && roll < 0.5
                            ? Keys.transpose(home, 5, mode)
                            : label.equals("build") && roll < 0.25 ? Keys.transpose(home, 7, mode) : home;
        }
        List<List<String>> choices = style.progressions().get(mode).at(level);
        List<String> progression =
                previous != null && choices.contains(previous.progression()) && rng.nextDouble() < 0.5
                        ? previous.progression()
                        : choices.get(rng.nextInt(choices.size()));
        GenerationOptions options = GenerationOptions.DEFAULT
                .withVocals(withVocals)
                .withGenre(genre.id())
                .withMultitrack(false)
                .withSeed(seed);
        Map<String, Instrument> instruments =
                Planner.instruments(genre, level, label, options, seed, false, index == 0);
        double seconds = bars * beats(meter) * 60.0 / tempo;
        Section section = new Section(
                0,
                0,
                seconds,
                label,
                tempo,
                meter,
                bars,
                0,
                key,
                mode,
                level,
                progression,
                instruments,
                index == 0 ? null : new Hit(0, "crash"),
                null,
                List.of(),
                List.of());
        if (withVocals) {
            section = Voices.sing(List.of(section), genre, new Analysis.Mood(0.5, 0.5), Planner.mix(seed, 2000 + index))
                    .getFirst();
        }
        return section;
    }

    /** The state after {@code section}, the {@code index}th, starting from {@code home}. */
    public static State after(Section section, int index, String home) {
        return new State(index, home, section.key(), section.mode(), section.progression());
    }

    /** {@code section} with another intensity: the genre's instruments at that level, everything else the same. */
    public static Section relevel(Genre genre, Section section, double intensity, boolean withVocals, long seed) {
        GenerationOptions options = GenerationOptions.DEFAULT
                .withVocals(withVocals)
                .withGenre(genre.id())
                .withMultitrack(false)
                .withSeed(seed);
        Map<String, Instrument> instruments = new LinkedHashMap<>(
                Planner.instruments(genre, intensity, section.label(), options, seed, false, false));
        Instrument voice = section.instruments().get(InstrumentGroup.VOCALS.wire());
        if (voice != null) {
            instruments.put(InstrumentGroup.VOCALS.wire(), voice);
        }
        return section.toBuilder()
                .intensity(intensity)
                .instruments(instruments)
                .composedAgain()
                .build();
    }

    private static int beats(String meter) {
        return Integer.parseInt(meter.substring(0, meter.indexOf('/')));
    }
}
