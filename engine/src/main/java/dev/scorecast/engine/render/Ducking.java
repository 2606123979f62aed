package dev.scorecast.engine.render;

import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.ScorecastException.FieldProblem;
import java.util.ArrayList;
import java.util.List;

/**
 * How the music gives way to speech (see {@link DuckingEnvelope} for the shape). Times are the
 * 10 %-90 % times of the level change in dB, which is what a level meter reads; the full ramps
 * are {@link DuckingEnvelope#RAMP_PER_10_90} times longer.
 *
 * @param enabled   false: the music is never ducked, whatever the spans say
 * @param speech    where someone speaks, seconds from the start of the video: the VAD spans of the
 *                  original audio and/or the voiceover's lines; any order, overlaps allowed
 * @param depthDb   how far the music sits under speech, dB ({@value #MIN_DEPTH_DB} to {@value #MAX_DEPTH_DB})
 * @param attackMs  how long the music takes to go down, ending when speech starts, ms
 *                  ({@value #MIN_ATTACK_MS} to {@value #MAX_ATTACK_MS})
 * @param releaseMs how long it takes to come back after speech ends, ms
 *                  ({@value #MIN_RELEASE_MS} to {@value #MAX_RELEASE_MS})
 */
public record Ducking(boolean enabled, List<Span> speech, double depthDb, double attackMs, double releaseMs) {

    public static final double DEFAULT_DEPTH_DB = 10;
    public static final double DEFAULT_ATTACK_MS = 100;
    public static final double DEFAULT_RELEASE_MS = 450;
    static final double MIN_DEPTH_DB = 8;
    static final double MAX_DEPTH_DB = 40;
    static final double MIN_ATTACK_MS = 50;
    static final double MAX_ATTACK_MS = 150;
    static final double MIN_RELEASE_MS = 300;
    static final double MAX_RELEASE_MS = 600;

    public Ducking {
        List<FieldProblem> problems = new ArrayList<>();
        List<Span> spans = new ArrayList<>();
        if (speech != null) {
            for (int i = 0; i < speech.size(); i++) {
                Span s = speech.get(i);
                if (s == null) {
                    problems.add(
                            new FieldProblem("ducking.speech[" + i + "]", "must be a span with start < end, was null"));
                } else if (!(s.start() >= 0) || !Double.isFinite(s.end())) {
                    problems.add(new FieldProblem(
                            "ducking.speech[" + i + "]",
                            "must lie at or after 0 s, was " + s.start() + " to " + s.end()));
                } else {
                    spans.add(s);
                }
            }
        }
        speech = List.copyOf(spans);
        check(problems, "ducking.depth_db", depthDb, MIN_DEPTH_DB, MAX_DEPTH_DB);
        check(problems, "ducking.attack_ms", attackMs, MIN_ATTACK_MS, MAX_ATTACK_MS);
        check(problems, "ducking.release_ms", releaseMs, MIN_RELEASE_MS, MAX_RELEASE_MS);
        if (!problems.isEmpty()) {
            throw InvalidParameter.of(problems);
        }
    }

    /** No ducking (the plan's {@code no_ducking}, or nothing that speaks). */
    public static Ducking off() {
        return new Ducking(false, List.of(), DEFAULT_DEPTH_DB, DEFAULT_ATTACK_MS, DEFAULT_RELEASE_MS);
    }

    /** Ducks under {@code speech} by 10 dB, 100 ms attack, 450 ms release. */
    public static Ducking under(List<Span> speech) {
        return new Ducking(true, speech, DEFAULT_DEPTH_DB, DEFAULT_ATTACK_MS, DEFAULT_RELEASE_MS);
    }

    public Ducking withDepthDb(double db) {
        return new Ducking(enabled, speech, db, attackMs, releaseMs);
    }

    public Ducking withAttackMs(double ms) {
        return new Ducking(enabled, speech, depthDb, ms, releaseMs);
    }

    public Ducking withReleaseMs(double ms) {
        return new Ducking(enabled, speech, depthDb, attackMs, ms);
    }

    /** True when the music will actually move: on, with at least one span. */
    public boolean active() {
        return enabled && !speech.isEmpty();
    }

    private static void check(List<FieldProblem> problems, String field, double value, double min, double max) {
        if (!(value >= min && value <= max)) {
            problems.add(new FieldProblem(field, "must be " + min + " to " + max + ", was " + value));
        }
    }
}
