package dev.scorecast.engine.music;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A one-bar drum fill as a drummer of the Groove MIDI Dataset played it (a groove template's
 * {@code fills}, made by bench's GrooveFills): every hit on its sixteenth of a 16-step bar, on the
 * General MIDI key of the drum struck, with its lateness (fractions of a sixteenth, the template's
 * swing taken out) and velocity. The composer plays the end of one at phrase ends and the bar before
 * a new section in place of the pattern's written fill.
 *
 * @param from the dataset performance it was played in
 * @param hits in step order
 */
record DrumFill(String from, List<Hit> hits) {
    static final int STEPS = 16;
    /** Hits this soft are ghost notes, left out of a fill at the calm levels. */
    static final int GHOST_VELOCITY = Groove.GHOST_VELOCITY;
    /** A fill's end shorter than this many hits is no fill at all: another is chosen. */
    static final int MIN_HITS = 2;

    /** One hit: {@code step} 0-15, the drum {@code note}, {@code offset} in fractions of a sixteenth (+ late), {@code velocity} as played. */
    record Hit(int step, int note, double offset, int velocity) {}

    DrumFill {
        hits = List.copyOf(hits);
    }

    /** The loudest hit: the fill's velocities are played relative to it. */
    int peak() {
        return hits.stream().mapToInt(Hit::velocity).max().orElse(1);
    }

    /**
     * The fill as a bar at pattern {@code level} plays it: the calm levels (0, 1) leave out its
     * ghost notes, so a soft section gets the fill's shape without its chatter.
     */
    DrumFill atLevel(int level) {
        if (level >= 2) {
            return this;
        }
        return new DrumFill(
                from, hits.stream().filter(h -> h.velocity() >= GHOST_VELOCITY).toList());
    }

    /** How many hits fall on or after {@code step}. */
    int countFrom(int step) {
        return (int) hits.stream().filter(h -> h.step() >= step).count();
    }

    /** The hits on {@code step}. */
    List<Hit> at(int step) {
        return hits.stream().filter(h -> h.step() == step).toList();
    }

    /**
     * Which of {@code fills} a bar at pattern {@code level} plays from step {@code from} on: drawn
     * by {@code rng} among those whose density there (as the level plays them) suits the level:
     * ordered by their number of hits from {@code from}, the sparsest third at level 0, the sparser
     * two thirds at 1, all but the sparsest third at 2, the busier half at 3; never {@code previous}
     * twice in a row when there is another; -1 when no fill has a fill's worth of hits there.
     */
    static int choose(List<DrumFill> fills, int level, int from, int previous, SplittableRandom rng) {
        List<Integer> playable = new ArrayList<>();
        for (int i = 0; i < fills.size(); i++) {
            if (fills.get(i).atLevel(level).countFrom(from) >= MIN_HITS) {
                playable.add(i);
            }
        }
        playable.sort(Comparator.comparingInt(
                        (Integer i) -> fills.get(i).atLevel(level).countFrom(from))
                .thenComparingInt(i -> i));
        int n = playable.size();
        int lo = switch (level) {
            case 0, 1 -> 0;
            case 2 -> n / 3;
            default -> n / 2;
        };
        int hi = switch (level) {
            case 0 -> (n + 2) / 3;
            case 1 -> (2 * n + 2) / 3;
            default -> n;
        };
        List<Integer> candidates =
                new ArrayList<>(playable.subList(Math.min(lo, n), Math.min(Math.max(hi, lo + 1), n)));
        if (candidates.size() > 1) {
            candidates.remove(Integer.valueOf(previous));
        }
        return candidates.isEmpty() ? -1 : candidates.get(rng.nextInt(candidates.size()));
    }

    /** Sorted sparsest first, as {@link #choose} takes them. */
    static List<DrumFill> sparsestFirst(List<DrumFill> fills) {
        return fills.stream()
                .sorted(Comparator.comparingInt((DrumFill f) -> f.hits().size()).thenComparing(DrumFill::from))
                .toList();
    }
}
