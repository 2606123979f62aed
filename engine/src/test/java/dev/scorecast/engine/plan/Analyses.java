package dev.scorecast.engine.plan;

import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.analysis.Cut;
import dev.scorecast.engine.analysis.CutKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.DoubleUnaryOperator;

/** Analyses built by hand: cuts at known times, an energy curve given as a function of time. */
final class Analyses {
    static final double HOP = 0.1;

    private Analyses() {}

    static Analysis of(
            double duration,
            double fps,
            List<Cut> cuts,
            DoubleUnaryOperator energy,
            double valence,
            double arousal,
            String genre,
            double tempo) {
        int hops = Math.max(1, (int) Math.ceil(duration / HOP));
        double[] values = new double[hops];
        for (int i = 0; i < hops; i++) {
            values[i] = energy.applyAsDouble(i * HOP);
        }
        var video = new Analysis.VideoFacts(duration, 1280, 720, fps, Math.round(duration * fps), true, "h264", 0);
        var audio = new Analysis.AudioFacts(-20.0, -3.0, List.of(), List.of(), 0);
        return new Analysis(
                Analysis.VERSION,
                video,
                cuts,
                List.of(),
                new Analysis.Energy(HOP, values),
                audio,
                new Analysis.Mood(valence, arousal),
                new Analysis.Suggestions(genre, tempo, 0, 0, List.of()),
                new Analysis.Quality(0, 0, List.of()));
    }

    static Analysis flat(double duration, double... cutTimes) {
        return of(duration, 25, cuts(cutTimes), t -> 0.4, 0.6, 0.5, "house", 124);
    }

    static List<Cut> cuts(double... times) {
        List<Cut> out = new ArrayList<>();
        for (double t : times) {
            out.add(Cut.hard(t, Math.round(t * 25), 0.9));
        }
        return out;
    }

    static Cut dissolve(double time) {
        return new Cut(time, Math.round(time * 25), CutKind.DISSOLVE, 0.7, time - 0.5, time + 0.5);
    }

    /** A video of {@code duration} seconds with {@code count} cuts at random times and a wandering energy curve. */
    static Analysis random(long seed, double duration, int count) {
        Random random = new Random(seed);
        double[] times = random.doubles(count, 0, duration).sorted().toArray();
        List<Cut> cuts = new ArrayList<>();
        for (double t : times) {
            double time = Math.round(t * 25) / 25.0;
            cuts.add(
                    random.nextInt(5) == 0
                            ? dissolve(Math.max(0.6, time))
                            : Cut.hard(time, Math.round(time * 25), random.nextDouble()));
        }
        cuts.sort(Comparator.comparingDouble(Cut::time));
        double phase = random.nextDouble() * 6;
        return of(
                duration,
                25,
                cuts,
                t -> 0.45 + 0.4 * Math.sin(phase + t / 23.0) * Math.cos(t / 71.0),
                random.nextDouble(),
                random.nextDouble(),
                "pop",
                110);
    }
}
