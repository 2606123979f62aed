package dev.scorecast.engine.render;

import dev.scorecast.engine.core.Span;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The music's gain under speech, sample by sample, computed from the spans rather than followed
 * from a detector: the spans are known in advance, so the music can be fully down when the first
 * word starts instead of being caught late. Per span, in dB: a raised-cosine fall over the attack
 * ramp that ends at the span's start, the full depth through the span, a raised-cosine rise over
 * the release ramp after its end. The raised cosine has no corner at either end, so nothing
 * clicks or thumps.
 *
 * <p>Spans whose gap is shorter than a release ramp plus an attack ramp are merged first: the
 * music would otherwise start to come back between words and go down again (pumping). Outside
 * the merged spans and their ramps the gain is exactly 1.
 *
 * <p>Reads forward: {@link #apply} must be called with increasing positions, block after block,
 * as the mixer streams. Holds only the merged spans, never samples.
 */
final class DuckingEnvelope {

    /**
     * A raised cosine crosses 10 % of its change at 0.2048 of its length and 90 % at 0.7952, so its
     * 10-90 time is 0.5903 of the ramp: the ramp is this many times the configured 10-90 time.
     */
    static final double RAMP_PER_10_90 = 1 / (1 - 2 * Math.acos(0.8) / Math.PI);

    private final long[] starts;
    private final long[] ends;
    private final int attack; // full ramp, samples
    private final int release;
    private final double depthNepers; // depth in natural-log units, so gain = exp(-depth * d)
    private int next; // first span whose release has not finished before the last position asked

    DuckingEnvelope(Ducking ducking, int rate) {
        this.attack = Math.max(1, (int) Math.round(ducking.attackMs() / 1000 * rate * RAMP_PER_10_90));
        this.release = Math.max(1, (int) Math.round(ducking.releaseMs() / 1000 * rate * RAMP_PER_10_90));
        this.depthNepers = ducking.depthDb() * Math.log(10) / 20;
        List<long[]> merged = new ArrayList<>();
        if (ducking.enabled()) {
            List<Span> sorted = new ArrayList<>(ducking.speech());
            sorted.sort(Comparator.comparingDouble(Span::start));
            for (Span s : sorted) {
                long a = Math.round(s.start() * rate);
                long b = Math.max(a + 1, Math.round(s.end() * rate));
                long[] last = merged.isEmpty() ? null : merged.getLast();
                if (last != null && a - last[1] < attack + release) {
                    last[1] = Math.max(last[1], b);
                } else {
                    merged.add(new long[] {a, b});
                }
            }
        }
        starts = merged.stream().mapToLong(s -> s[0]).toArray();
        ends = merged.stream().mapToLong(s -> s[1]).toArray();
    }

    /** Merged spans, for the log and tests. */
    int spans() {
        return starts.length;
    }

    /** The linear gain at sample {@code k}; {@code k} must not go backwards between calls. */
    double gainAt(long k) {
        while (next < starts.length && k >= ends[next] + release) {
            next++;
        }
        if (next == starts.length || k < starts[next] - attack) {
            return 1;
        }
        double down; // 0 = full level, 1 = full depth
        if (k < starts[next]) {
            double x = (k - (starts[next] - attack)) / (double) attack;
            down = 0.5 * (1 - Math.cos(Math.PI * x));
        } else if (k < ends[next]) {
            down = 1;
        } else {
            double x = (k - ends[next]) / (double) release;
            down = 0.5 * (1 + Math.cos(Math.PI * x));
        }
        return Math.exp(-depthNepers * down);
    }

    /** In place: frames {@code [pos, pos + n)} of the music times the gain. */
    void apply(float[][] buf, long pos, int n) {
        if (starts.length == 0) {
            return;
        }
        float[] l = buf[0];
        float[] r = buf[1];
        for (int i = 0; i < n; i++) {
            float g = (float) gainAt(pos + i);
            l[i] *= g;
            r[i] *= g;
        }
    }
}
