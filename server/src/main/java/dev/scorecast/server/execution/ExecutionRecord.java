package dev.scorecast.server.execution;

import java.time.Instant;

/**
 * One run of a plan. {@code outputs} is the blob prefix of its files once finished;
 * {@code failureKey} the failure report once it failed; {@code keyId} the API key it was started
 * with (null for executions from before V16), which links made outside a request carry.
 */
public record ExecutionRecord(
        String id,
        String owner,
        String jobId,
        String videoId,
        String planKey,
        String analysisKey,
        String outputs,
        String failureKey,
        Instant createdAt,
        String keyId) {}
