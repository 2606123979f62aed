package dev.scorecast.server.analysis;

import java.time.Instant;

/** An analysis of one video: its job, and where the finished JSON is stored. */
public record AnalysisRecord(
        String id, String owner, String videoId, String jobId, String resultKey, Instant createdAt) {}
