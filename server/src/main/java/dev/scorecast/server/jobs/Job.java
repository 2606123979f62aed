package dev.scorecast.server.jobs;

import java.time.Instant;

/**
 * Background work as a client sees it. {@code subjectId} is what the job works on (a video for an
 * analysis). A failed job keeps the error code and field of the exception that stopped it, so its
 * status explains itself the way a refused request would.
 */
public record Job(
        String id,
        String owner,
        String kind,
        String subjectId,
        JobStatus status,
        double progress,
        String message,
        String errorCode,
        String errorField,
        Instant createdAt,
        Instant updatedAt) {}
