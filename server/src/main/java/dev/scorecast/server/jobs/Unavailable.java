package dev.scorecast.server.jobs;

import dev.scorecast.engine.error.Overloaded;
import dev.scorecast.server.db.Database;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells a job's failure from the database or the object store being away under it (restarted,
 * paused, unreachable). That is not the job's fault either: ended {@code error}, a user's job would
 * fail for a 10 s database restart (the fault campaigns found two executions ending
 * {@code internal_error} when PostgreSQL restarted under them). The run is given up and the job runs
 * again {@link JobRunner#RETRY_AFTER_UNAVAILABLE} later, on any worker; its starts are still counted
 * (JobStartsTest), so a dependency that never comes back ends it {@code too_many_attempts}.
 */
public final class Unavailable extends RuntimeException {
    private static final Logger LOG = LoggerFactory.getLogger(Unavailable.class);

    private Unavailable(String message, Throwable cause) {
        super(message, cause, false, false);
    }

    /** Rethrows {@code failure}, wrapped, when the database or the store did not answer; returns otherwise. */
    public static void rethrowIfUnavailable(Throwable failure, String kind, String jobId) {
        if (!causedBy(failure)) {
            return;
        }
        LOG.warn(
                "{} job {} cut off by the database or the object store being away ({}); it will run again",
                kind,
                jobId,
                failure.toString());
        throw new Unavailable(kind + " job " + jobId + " cut off by a dependency being away", failure);
    }

    /** Whether {@code failure} came of the database not answering, or of the store (an Overloaded in a job's run is the store's). */
    public static boolean causedBy(Throwable failure) {
        if (Database.unavailable(failure)) {
            return true;
        }
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof Overloaded) {
                return true;
            }
        }
        return false;
    }
}
