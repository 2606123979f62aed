package dev.scorecast.server.ops;

import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/** A Prometheus histogram of seconds: cumulative bucket counts, a sum and a count, lock-free to observe. */
final class Histogram {
    private final double[] bounds;
    private final LongAdder[] counts;
    private final DoubleAdder sum = new DoubleAdder();
    private final LongAdder count = new LongAdder();

    Histogram(double... bounds) {
        this.bounds = bounds.clone();
        this.counts = new LongAdder[bounds.length];
        for (int i = 0; i < bounds.length; i++) {
            counts[i] = new LongAdder();
        }
    }

    void observe(double seconds) {
        for (int i = 0; i < bounds.length; i++) {
            if (seconds <= bounds[i]) {
                counts[i].increment();
            }
        }
        sum.add(seconds);
        count.increment();
    }

    /** Appends the series of {@code name} with {@code labels} (already formatted, without braces; may be empty). */
    void write(StringBuilder out, String name, String labels) {
        String sep = labels.isEmpty() ? "" : labels + ",";
        for (int i = 0; i < bounds.length; i++) {
            out.append(name)
                    .append("_bucket{")
                    .append(sep)
                    .append("le=\"")
                    .append(Metrics.number(bounds[i]))
                    .append("\"} ")
                    .append(counts[i].sum())
                    .append('\n');
        }
        out.append(name)
                .append("_bucket{")
                .append(sep)
                .append("le=\"+Inf\"} ")
                .append(count.sum())
                .append('\n');
        String braces = labels.isEmpty() ? "" : "{" + labels + "}";
        out.append(name)
                .append("_sum")
                .append(braces)
                .append(' ')
                .append(Metrics.number(sum.sum()))
                .append('\n');
        out.append(name)
                .append("_count")
                .append(braces)
                .append(' ')
                .append(count.sum())
                .append('\n');
    }
}
