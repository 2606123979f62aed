package dev.scorecast.engine.plan;

import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.analysis.Cut;
import dev.scorecast.engine.analysis.Scene;
import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.ScorecastException.FieldProblem;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks an analysis a client sent (variant B uploads the analysis file itself, possibly edited)
 * field by field before anything plans from it, like {@link PlanValidator} does for plans. Every
 * list is capped and every time must be finite, inside the video and in order, so that the
 * planner's work is bounded by the caps whatever the client wrote. At most {@link #MAX_PROBLEMS}
 * problems are reported, the first ones, so that a refusal of a huge bad file stays small.
 *
 * <p>The caps are far above what the analyser writes for the longest video the server accepts
 * (30 minutes by default: a cut every 0.1 s would be 18,000).
 */
public final class AnalysisValidator {
    public static final int MAX_CUTS = 20_000;
    public static final int MAX_SCENES = MAX_CUTS + 1;
    public static final int MAX_SPEECH_SPANS = 20_000;
    public static final int MAX_ONSETS = 200_000;
    public static final int MAX_ENERGY_VALUES = 400_000;
    public static final int MAX_WARNINGS = 100;
    public static final int MAX_ALTERNATIVES = 32;
    /** Four hours: longer than any video the server accepts with its own limits. */
    public static final double MAX_DURATION_SECONDS = 4 * 3600;
    /** Times may pass the video's end by this much (container rounding, a last frame's length). */
    public static final double END_SLACK_SECONDS = 0.5;

    static final int MAX_PROBLEMS = 20;

    private final List<FieldProblem> problems = new ArrayList<>();
    private final String at;
    private int dropped;

    private AnalysisValidator(String at) {
        this.at = at;
    }

    /**
     * The analysis unchanged when every field is within bounds.
     *
     * @param field the request field that carried it (e.g. {@code analysis}), the prefix of every problem's path
     * @throws InvalidParameter naming each bad field (the first {@value #MAX_PROBLEMS}) and how to fix it
     */
    public static Analysis validate(Analysis analysis, String field) {
        AnalysisValidator v = new AnalysisValidator(field);
        v.check(analysis);
        if (!v.problems.isEmpty()) {
            if (v.dropped > 0) {
                v.problems.add(new FieldProblem(
                        field, v.dropped + " more problems are not listed; fix the ones above and send it again"));
            }
            throw InvalidParameter.of(v.problems);
        }
        return analysis;
    }

    private void check(Analysis a) {
        if (a == null) {
            problem("", "the analysis is missing; send the analysis object /sync_video_analysis returned");
            return;
        }
        if (a.version() != Analysis.VERSION) {
            problem(".version", "version must be " + Analysis.VERSION + ", not " + a.version());
        }
        Analysis.VideoFacts video = a.video();
        if (video == null) {
            problem(".video", "video is required: the facts of the video (duration, width, height, fps, frames)");
            return;
        }
        double duration = video.duration();
        if (!(duration > 0 && duration <= MAX_DURATION_SECONDS)) {
            problem(
                    ".video.duration",
                    "duration must be the video's length in seconds, above 0 and at most " + (long) MAX_DURATION_SECONDS
                            + ", not " + video.duration());
            return;
        }
        if (!(video.fps() >= 0 && video.fps() <= 1000)) {
            problem(".video.fps", "fps must be 0 (unknown) to 1000 frames per second, not " + video.fps());
        }
        if (video.frames() < 0) {
            problem(".video.frames", "frames must be 0 or more, not " + video.frames());
        }
        double end = duration + END_SLACK_SECONDS;
        cuts(a.cuts(), end);
        scenes(a.scenes(), end);
        energy(a.energy(), duration);
        audio(a.audio(), end);
        if (a.mood() != null) {
            unit(".mood.valence", a.mood().valence());
            unit(".mood.arousal", a.mood().arousal());
        }
        if (a.suggestions() != null) {
            var s = a.suggestions();
            if (!(Double.isFinite(s.tempo()) && Double.isFinite(s.tempoMin()) && Double.isFinite(s.tempoMax()))) {
                problem(".suggestions.tempo", "tempo, tempo_min and tempo_max must be numbers of beats per minute");
            }
            cap(".suggestions.alternatives", s.alternatives(), MAX_ALTERNATIVES);
        }
        if (a.quality() != null) {
            cap(".quality.warnings", a.quality().warnings(), MAX_WARNINGS);
        }
    }

    private void cuts(List<Cut> cuts, double end) {
        if (cuts == null) {
            problem(".cuts", "cuts is required: a list of transitions, empty when the video is one shot");
            return;
        }
        if (!cap(".cuts", cuts, MAX_CUTS)) {
            return;
        }
        double previous = 0;
        for (int i = 0; i < cuts.size(); i++) {
            Cut c = cuts.get(i);
            String here = ".cuts[" + i + "]";
            if (c == null) {
                problem(here, "a cut must be an object with time, frame, kind, strength, start and end");
                continue;
            }
            if (c.kind() == null) {
                problem(here + ".kind", "kind is required: cut, fade_in, fade_out or dissolve");
            }
            if (!within(c.time(), end)) {
                problem(here + ".time", "time must be seconds from 0 to the video's end, not " + c.time());
            } else if (c.time() < previous) {
                problem(here + ".time", "cuts must be in time order: " + c.time() + " comes after " + previous);
            } else {
                previous = c.time();
            }
            if (!within(c.start(), end) || !within(c.end(), end)) {
                problem(
                        here + ".start",
                        "start and end must be seconds from 0 to the video's end, not " + c.start() + " and "
                                + c.end());
            }
            if (c.frame() < 0) {
                problem(here + ".frame", "frame must be 0 or more, not " + c.frame());
            }
        }
    }

    private void scenes(List<Scene> scenes, double end) {
        if (scenes == null || !cap(".scenes", scenes, MAX_SCENES)) {
            return;
        }
        for (int i = 0; i < scenes.size(); i++) {
            Scene s = scenes.get(i);
            String here = ".scenes[" + i + "]";
            if (s == null) {
                problem(
                        here,
                        "a scene must be an object with index, start, end, motion, brightness, colorfulness and warmth");
                continue;
            }
            if (!within(s.start(), end) || !within(s.end(), end) || s.end() < s.start()) {
                problem(
                        here + ".start",
                        "start and end must be seconds inside the video with start <= end, not " + s.start() + " and "
                                + s.end());
            }
            unit(here + ".motion", s.motion());
            unit(here + ".brightness", s.brightness());
            unit(here + ".colorfulness", s.colorfulness());
            unit(here + ".warmth", s.warmth());
            unit(here + ".camera_motion", s.cameraMotion());
            unit(here + ".subject_motion", s.subjectMotion());
            unit(here + ".flicker", s.flicker());
        }
    }

    private void energy(Analysis.Energy energy, double duration) {
        if (energy == null || energy.values() == null) {
            problem(".energy", "energy is required: {\"hop\": seconds, \"values\": [numbers 0 to 1]}");
            return;
        }
        if (!(energy.hop() >= 0.01 && energy.hop() <= 60)) {
            problem(".energy.hop", "hop must be 0.01 to 60 seconds, not " + energy.hop());
            return;
        }
        long expected = (long) Math.ceil(duration / energy.hop()) + 2;
        int limit = (int) Math.min(MAX_ENERGY_VALUES, expected);
        if (energy.values().length > limit) {
            problem(
                    ".energy.values",
                    "values holds " + energy.values().length + " numbers but a video of " + duration + " s at a hop of "
                            + energy.hop() + " s has at most " + limit);
            return;
        }
        double[] values = energy.values();
        for (int i = 0; i < values.length; i++) {
            if (!(values[i] >= 0 && values[i] <= 1)) {
                problem(".energy.values[" + i + "]", "energy values must be numbers from 0 to 1, not " + values[i]);
            }
        }
    }

    private void audio(Analysis.AudioFacts audio, double end) {
        if (audio == null) {
            return;
        }
        finiteOrNull(".audio.integrated_lufs", audio.integratedLufs());
        finiteOrNull(".audio.true_peak_dbtp", audio.truePeakDbtp());
        unit(".audio.speech_ratio", audio.speechRatio());
        List<Span> speech = audio.speech();
        if (speech != null && cap(".audio.speech", speech, MAX_SPEECH_SPANS)) {
            double previousEnd = 0;
            for (int i = 0; i < speech.size(); i++) {
                Span s = speech.get(i);
                String here = ".audio.speech[" + i + "]";
                if (s == null) {
                    problem(here, "a speech span must be an object with start and end");
                } else if (!within(s.start(), end) || !within(s.end(), end)) {
                    problem(
                            here,
                            "start and end must be seconds inside the video, not " + s.start() + " and " + s.end());
                } else if (s.start() < previousEnd) {
                    problem(
                            here + ".start",
                            "speech spans must be in time order without overlapping: " + s.start()
                                    + " starts before the span before it ends at " + previousEnd);
                } else {
                    previousEnd = s.end();
                }
            }
        }
        List<Double> onsets = audio.onsets();
        if (onsets != null && cap(".audio.onsets", onsets, MAX_ONSETS)) {
            for (int i = 0; i < onsets.size(); i++) {
                Double t = onsets.get(i);
                if (t == null || !within(t, end)) {
                    problem(".audio.onsets[" + i + "]", "onsets must be seconds inside the video, not " + t);
                }
            }
        }
    }

    /** False (and a problem) when {@code list} holds more than {@code max} items. */
    private boolean cap(String path, List<?> list, int max) {
        if (list != null && list.size() > max) {
            problem(
                    path,
                    path.substring(path.lastIndexOf('.') + 1) + " holds " + list.size() + " items; at most " + max
                            + " are accepted");
            return false;
        }
        return true;
    }

    private void unit(String path, double value) {
        if (!(value >= 0 && value <= 1)) {
            problem(path, "must be a number from 0 to 1, not " + value);
        }
    }

    private void finiteOrNull(String path, Double value) {
        if (value != null && !Double.isFinite(value)) {
            problem(path, "must be a number or null, not " + value);
        }
    }

    private static boolean within(double t, double end) {
        return t >= 0 && t <= end;
    }

    private void problem(String path, String message) {
        if (problems.size() < MAX_PROBLEMS) {
            problems.add(new FieldProblem(at + path, message));
        } else {
            dropped++;
        }
    }
}
