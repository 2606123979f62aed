package dev.scorecast.engine.analysis;

/**
 * A transition. {@code time} (seconds, from presentation timestamps) and {@code frame} mark where
 * the new shot begins: the first frame of the new shot for a cut, the middle of the span for a
 * dissolve, the first non-black frame for a fade in, the first black frame for a fade out.
 * {@code start}/{@code end} are the span of a gradual transition (equal to {@code time} for a cut).
 * {@code strength} in [0, 1] is how different the two sides are.
 */
public record Cut(double time, long frame, CutKind kind, double strength, double start, double end) {
    public Cut {
        if (!(strength >= 0 && strength <= 1)) {
            throw new IllegalArgumentException("strength must be in [0, 1]: " + strength);
        }
        if (start > time || time > end) {
            throw new IllegalArgumentException("need start <= time <= end: " + start + ", " + time + ", " + end);
        }
    }

    public static Cut hard(double time, long frame, double strength) {
        return new Cut(time, frame, CutKind.CUT, strength, time, time);
    }
}
