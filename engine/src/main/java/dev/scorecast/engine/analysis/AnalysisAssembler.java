package dev.scorecast.engine.analysis;

import dev.scorecast.engine.analysis.Analysis.AudioFacts;
import dev.scorecast.engine.analysis.Analysis.Energy;
import dev.scorecast.engine.analysis.Analysis.Mood;
import dev.scorecast.engine.analysis.Analysis.Quality;
import dev.scorecast.engine.analysis.Analysis.Suggestions;
import dev.scorecast.engine.analysis.Analysis.VideoFacts;
import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.style.Genre;
import dev.scorecast.engine.style.GenreCatalog;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Turns the measurements of the picture and the sound into the analysis the planner reads: the
 * blended energy curve, the mood, and a genre and tempo to start from. A pure function; the
 * weights are explained in docs/ANALYSIS.md.
 */
public final class AnalysisAssembler {
    static final double HOP_SECONDS = 0.1;
    /** Energy is smoothed over this many hops either side, so single-frame jolts do not read as energy. */
    private static final int SMOOTHING_HOPS = 2;
    /** Cuts within this distance of a moment count toward its cut density. */
    private static final double CUT_DENSITY_WINDOW_SECONDS = 2.0;
    /** One cut a second is as busy as editing gets; denser cutting counts the same. */
    private static final double BUSIEST_CUTS_PER_SECOND = 1.0;
    /** Dialogue-heavy videos move away from genres that would fight the voice. */
    private static final double SPEECH_HEAVY_RATIO = 0.3;

    private static final double DIALOGUE_PENALTY = 0.35;

    private AnalysisAssembler() {}

    public static Analysis assemble(
            VideoFacts video, VisualAnalysis visual, Optional<AudioAnalysis> audio, GenreCatalog genres) {
        List<Cut> cuts = visual.cuts().stream()
                .sorted(Comparator.comparingDouble(Cut::time))
                .toList();
        double[] energy = energy(video.duration(), visual, audio, cuts);
        AudioFacts audioFacts = audio.map(a -> new AudioFacts(
                        a.integratedLufs(),
                        a.truePeakDbtp(),
                        a.speech(),
                        a.onsets(),
                        speechRatio(a.speech(), video.duration())))
                .orElseGet(() -> new AudioFacts(null, null, List.of(), List.of(), 0));
        Mood mood = mood(visual.scenes(), energy, cuts, video.duration());
        Suggestions suggestions = suggest(mood, audioFacts.speechRatio(), genres);
        var warnings = new ArrayList<>(visual.warnings());
        if (!video.hasAudio()) {
            warnings.add(
                    "The video has no audio track: loudness and speech are empty and energy comes from the picture alone.");
        }
        return new Analysis(
                Analysis.VERSION,
                video,
                cuts,
                visual.scenes(),
                new Energy(HOP_SECONDS, energy),
                audioFacts,
                mood,
                suggestions,
                new Quality(visual.framesDecoded(), visual.framesSkipped(), List.copyOf(warnings)));
    }

    /**
     * Motion of the picture, loudness of the sound and the density of cutting, blended per hop and
     * lightly smoothed. Without sound the picture carries the weight the sound would have had.
     */
    static double[] energy(
            double durationSeconds, VisualAnalysis visual, Optional<AudioAnalysis> audio, List<Cut> cuts) {
        int hops = Math.max(1, (int) Math.ceil(durationSeconds / HOP_SECONDS));
        double[] blended = new double[hops];
        for (int i = 0; i < hops; i++) {
            double seconds = i * HOP_SECONDS;
            double motion = valueAt(visual.motion(), visual.hop(), seconds);
            double density = cutDensity(cuts, seconds);
            blended[i] = audio.isPresent()
                    ? 0.55 * motion
                            + 0.25 * valueAt(audio.get().loudness(), audio.get().hop(), seconds)
                            + 0.20 * density
                    : 0.75 * motion + 0.25 * density;
        }
        return round(smooth(blended, SMOOTHING_HOPS));
    }

    static Mood mood(List<Scene> scenes, double[] energy, List<Cut> cuts, double durationSeconds) {
        double meanEnergy = Arrays.stream(energy).average().orElse(0);
        double[] sorted = energy.clone();
        Arrays.sort(sorted);
        double peakEnergy = sorted[(int) Math.floor(0.9 * (sorted.length - 1))];
        long hardCuts = cuts.stream().filter(c -> c.kind() == CutKind.CUT).count();
        double cutsPerMinute = durationSeconds > 0 ? hardCuts * 60 / durationSeconds : 0;
        double arousal = clamp(0.5 * meanEnergy + 0.3 * Math.min(1, cutsPerMinute / 40) + 0.2 * peakEnergy);

        double weight = 0;
        double look = 0;
        for (Scene scene : scenes) {
            double length = scene.end() - scene.start();
            look += length * (0.4 * scene.brightness() + 0.35 * scene.colorfulness() + 0.25 * scene.warmth());
            weight += length;
        }
        // Typical footage sits between 0.2 and 0.8 on this measure; stretch that to the full range.
        double valence = weight > 0 ? clamp((look / weight - 0.2) / 0.6) : 0.5;
        return new Mood(round(valence), round(arousal));
    }

    /** The genre nearest the mood, steered away from busy genres when people talk a lot. */
    static Suggestions suggest(Mood mood, double speechRatio, GenreCatalog catalog) {
        record Scored(Genre genre, double distance) {}
        List<Scored> ranked = catalog.all().stream()
                .map(g -> new Scored(
                        g,
                        Math.hypot(g.mood().valence() - mood.valence(), g.mood().arousal() - mood.arousal())
                                + (speechRatio > SPEECH_HEAVY_RATIO && !g.dialogueFriendly() ? DIALOGUE_PENALTY : 0)))
                .sorted(Comparator.comparingDouble(Scored::distance)
                        .thenComparing(s -> s.genre().id()))
                .toList();
        Genre best = ranked.getFirst().genre();
        double tempo = Math.round(best.tempoMinBpm() + mood.arousal() * (best.tempoMaxBpm() - best.tempoMinBpm()));
        return new Suggestions(
                best.id(),
                tempo,
                best.tempoMinBpm(),
                best.tempoMaxBpm(),
                ranked.stream().skip(1).limit(2).map(s -> s.genre().id()).toList());
    }

    static double speechRatio(List<Span> speech, double durationSeconds) {
        if (durationSeconds <= 0) {
            return 0;
        }
        return round(clamp(speech.stream().mapToDouble(Span::length).sum() / durationSeconds));
    }

    /** The value of a curve sampled every {@code hop} seconds, held at the nearest earlier sample. */
    private static double valueAt(double[] curve, double hop, double seconds) {
        if (curve.length == 0) {
            return 0;
        }
        int index = (int) Math.min(curve.length - 1, Math.floor(seconds / hop + 1e-9));
        return clamp(curve[index]);
    }

    private static double cutDensity(List<Cut> cuts, double seconds) {
        double strength = 0;
        for (Cut cut : cuts) {
            if (Math.abs(cut.time() - seconds) <= CUT_DENSITY_WINDOW_SECONDS) {
                strength += cut.strength();
            }
        }
        return clamp(strength / (2 * CUT_DENSITY_WINDOW_SECONDS) / BUSIEST_CUTS_PER_SECOND);
    }

    private static double[] smooth(double[] values, int radius) {
        double[] out = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            int from = Math.max(0, i - radius);
            int to = Math.min(values.length - 1, i + radius);
            double sum = 0;
            for (int j = from; j <= to; j++) {
                sum += values[j];
            }
            out[i] = sum / (to - from + 1);
        }
        return out;
    }

    private static double[] round(double[] values) {
        return Arrays.stream(values).map(AnalysisAssembler::round).toArray();
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }

    private static double clamp(double value) {
        return Math.max(0, Math.min(1, value));
    }
}
