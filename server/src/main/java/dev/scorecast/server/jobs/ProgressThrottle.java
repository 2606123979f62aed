package dev.scorecast.server.jobs;

import java.util.function.DoubleConsumer;

/** Passes progress on only when it has moved by a percent, so a per-frame callback costs no writes. */
public final class ProgressThrottle implements DoubleConsumer {
    private final DoubleConsumer target;
    private double last = -1;

    public ProgressThrottle(DoubleConsumer target) {
        this.target = target;
    }

    @Override
    public synchronized void accept(double fraction) {
        if (fraction - last >= 0.01) {
            last = fraction;
            target.accept(fraction);
        }
    }
}
