package dev.scorecast.server;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a node closes when it stops, in the order it closes them: the HTTP ports first (no new requests), then the
 * threads that send and sweep, the player and the job runner (which waits for the runs in progress), and the store and
 * the database last, which all of them use. The same list serves {@link ScorecastServer#close()} and a start that failed
 * after everything was built. A part that fails to close is logged and the others still close.
 */
final class Teardown implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Teardown.class);

    /** One part: its name for the log, and how it closes. */
    private record Step(String name, AutoCloseable close) {}

    private final List<Step> steps = new ArrayList<>();

    /** Closes {@code part} after the steps added before; nothing when it is null (a part this node's role does not have). */
    Teardown then(String name, AutoCloseable part) {
        if (part != null) {
            steps.add(new Step(name, part));
        }
        return this;
    }

    @Override
    public void close() {
        for (Step step : steps) {
            try {
                step.close().close();
            } catch (Exception e) {
                LOG.warn("closing {} failed", step.name(), e);
            }
        }
    }
}
