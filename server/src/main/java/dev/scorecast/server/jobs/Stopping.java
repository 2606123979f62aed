package dev.scorecast.server.jobs;

import java.nio.channels.ClosedByInterruptException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells a job's failure from this node stopping under it. A node that shuts down interrupts its
 * workers, and the work then fails with whatever the interrupt broke (a closed channel, an
 * interrupted wait). That is not the job's fault: it must not end as {@code error}, but run again
 * at once on the next worker, which {@link JobRunner} arranges when the failure is rethrown.
 */
public final class Stopping {
    private static final Logger LOG = LoggerFactory.getLogger(Stopping.class);

    private Stopping() {}

    /**
     * Rethrows {@code failure} when it came of this node stopping, so that the job stays unfinished
     * and {@link JobRunner} runs it again on the next worker; returns otherwise, for the caller to
     * end the job as it failed.
     */
    public static void rethrowIfStopping(Throwable failure, String kind, String jobId) {
        if (!causedBy(failure)) {
            return;
        }
        LOG.info("{} job {} cut off by this node stopping; it will run again", kind, jobId);
        throw failure instanceof RuntimeException runtime
                ? runtime
                : new IllegalStateException("cut off by the node stopping", failure);
    }

    /** Whether {@code failure} came of this thread being interrupted. */
    public static boolean causedBy(Throwable failure) {
        if (Thread.currentThread().isInterrupted()) {
            return true;
        }
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof InterruptedException || t instanceof ClosedByInterruptException) {
                return true;
            }
        }
        return false;
    }
}
