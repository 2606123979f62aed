package dev.scorecast.server.jobs;

/**
 * Thrown out of a job's run when the job is no longer its to write: another run of the job started
 * since (its token replaced this one's) or the job ended. The run stops, keeps nothing it made, and
 * writes nothing to the job.
 */
public final class Superseded extends RuntimeException {
    public Superseded(JobRepository.Run run) {
        super(
                "job " + run.jobId() + " is no longer run " + run.token()
                        + "'s to write: another run took it over, or it ended",
                null,
                false,
                false);
    }

    /** Whether {@code failure} is, or was caused by, a run being superseded. */
    public static boolean in(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof Superseded) {
                return true;
            }
        }
        return false;
    }
}
