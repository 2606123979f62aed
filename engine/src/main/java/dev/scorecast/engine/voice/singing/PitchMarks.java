package dev.scorecast.engine.voice.singing;

import java.util.Arrays;

/**
 * Pitch marks for TD-PSOLA: one per glottal cycle of each voiced run. The first mark sits on the
 * largest peak of the run's first cycle; each next one is predicted one local period later and
 * moved to the largest peak within a sixth of a period of the prediction, so the marks follow the
 * waveform without jumping between the peaks of one cycle.
 */
final class PitchMarks {

    private PitchMarks() {}

    static int[] place(float[] x, boolean[] voiced, float[] period) {
        int[] marks = new int[16];
        int count = 0;
        int i = 0;
        while (i < x.length) {
            if (!voiced[i]) {
                i++;
                continue;
            }
            int end = i;
            while (end < x.length && voiced[end]) {
                end++;
            }
            int mark = peak(x, i, Math.min(end, i + Math.round(period[i])));
            while (mark < end) {
                if (count == marks.length) {
                    marks = Arrays.copyOf(marks, count * 2);
                }
                marks[count++] = mark;
                float p = period[mark];
                int predicted = mark + Math.round(p);
                int reach = Math.max(1, Math.round(p / 6));
                if (predicted >= end) {
                    break;
                }
                mark = peak(x, Math.max(mark + 1, predicted - reach), Math.min(end, predicted + reach + 1));
            }
            i = end;
        }
        return Arrays.copyOf(marks, count);
    }

    private static int peak(float[] x, int from, int to) {
        int best = from;
        for (int i = from + 1; i < to; i++) {
            if (x[i] > x[best]) {
                best = i;
            }
        }
        return best;
    }

    /** The index in {@code marks} of the mark nearest {@code position}, or -1 when there are none. */
    static int nearest(int[] marks, double position) {
        if (marks.length == 0) {
            return -1;
        }
        int at = Arrays.binarySearch(marks, (int) Math.round(position));
        if (at >= 0) {
            return at;
        }
        int after = -at - 1;
        if (after == 0) {
            return 0;
        }
        if (after == marks.length) {
            return marks.length - 1;
        }
        return position - marks[after - 1] <= marks[after] - position ? after - 1 : after;
    }
}
