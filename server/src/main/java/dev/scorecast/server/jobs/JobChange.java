package dev.scorecast.server.jobs;

import java.time.Instant;

/**
 * One write of a job's state, with what it was just before: what listeners ({@link JobEvents}) are
 * told, inside the transaction that writes it. {@code stage} names the part of the work running
 * (an execution's compose, render, ...; an analysis's analyse), and stays where a failure left it.
 */
public record JobChange(
        String jobId,
        String owner,
        String kind,
        String subjectId,
        JobStatus before,
        double progressBefore,
        String stageBefore,
        JobStatus status,
        double progress,
        String stage,
        String message,
        String errorCode,
        String errorField,
        Instant createdAt,
        Instant at) {

    /** True when this write ended the job (finished or error) and it had not ended before. */
    public boolean ended() {
        return status.isDone() && !before.isDone();
    }

    /** Whole percent done, 0 to 100. */
    public int percent() {
        return percentOf(progress);
    }

    public static int percentOf(double progress) {
        return (int) Math.floor(Math.clamp(progress, 0, 1) * 100 + 1e-9);
    }

    /** The job as it is after this write (as {@link Job}, which has no stage). */
    public Job job() {
        return new Job(jobId, owner, kind, subjectId, status, progress, message, errorCode, errorField, createdAt, at);
    }
}
