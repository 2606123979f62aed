package dev.scorecast.engine.voice.speech;

import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.error.InvalidParameter;
import java.util.ArrayList;
import java.util.List;

/** Turns a detector's per-window speech probabilities into spans, by {@link SpeechRules}. Pure. */
public final class SpeechSpans {

    private SpeechSpans() {}

    /**
     * @param probabilities   one value in [0, 1] per window; window {@code i} covers
     *                        {@code [i * windowSeconds, (i + 1) * windowSeconds)}
     * @param count           how many of {@code probabilities} are valid
     * @param windowSeconds   the hop between windows
     * @param durationSeconds the recording's length, which clips the last span and the padding
     */
    public static List<Span> fromProbabilities(
            float[] probabilities, int count, double windowSeconds, double durationSeconds, SpeechRules rules) {
        if (count < 0 || count > probabilities.length) {
            throw new InvalidParameter("count", "must be in [0, " + probabilities.length + "], was " + count);
        }
        if (!(windowSeconds > 0)) {
            throw new InvalidParameter("windowSeconds", "must be positive, was " + windowSeconds);
        }
        if (!(durationSeconds >= 0)) {
            throw new InvalidParameter("durationSeconds", "must not be negative, was " + durationSeconds);
        }
        List<double[]> spans = dropShort(
                bridgeGaps(
                        hysteresis(probabilities, count, windowSeconds, durationSeconds, rules),
                        rules.minSilenceSeconds()),
                rules.minSpeechSeconds());
        return padAndJoin(spans, rules.padSeconds(), durationSeconds);
    }

    private static List<double[]> hysteresis(float[] p, int count, double window, double duration, SpeechRules rules) {
        List<double[]> spans = new ArrayList<>();
        int start = -1;
        for (int i = 0; i < count; i++) {
            if (start < 0 && p[i] >= rules.onThreshold()) {
                start = i;
            } else if (start >= 0 && p[i] < rules.offThreshold()) {
                spans.add(new double[] {start * window, i * window});
                start = -1;
            }
        }
        if (start >= 0) {
            spans.add(new double[] {start * window, Math.min(duration, count * window)});
        }
        return spans;
    }

    private static List<double[]> bridgeGaps(List<double[]> spans, double minSilence) {
        List<double[]> out = new ArrayList<>();
        for (double[] s : spans) {
            if (!out.isEmpty() && s[0] - out.getLast()[1] < minSilence) {
                out.getLast()[1] = s[1];
            } else {
                out.add(s);
            }
        }
        return out;
    }

    private static List<double[]> dropShort(List<double[]> spans, double minSpeech) {
        return spans.stream().filter(s -> s[1] - s[0] >= minSpeech).toList();
    }

    private static List<Span> padAndJoin(List<double[]> spans, double pad, double duration) {
        List<double[]> joined = new ArrayList<>();
        for (double[] s : spans) {
            double start = Math.max(0, s[0] - pad);
            double end = Math.min(duration, s[1] + pad);
            if (!joined.isEmpty() && start <= joined.getLast()[1]) {
                joined.getLast()[1] = Math.max(joined.getLast()[1], end);
            } else if (end > start) {
                joined.add(new double[] {start, end});
            }
        }
        return joined.stream().map(s -> new Span(s[0], s[1])).toList();
    }
}
