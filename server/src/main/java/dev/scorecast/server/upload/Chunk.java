package dev.scorecast.server.upload;

import java.time.Instant;

/**
 * One stored chunk. {@code storedAs} is the blob key; a re-sent index gets a new one.
 * {@code sha256} is known only when the client asked for SHA-256 verification.
 */
public record Chunk(
        int index,
        String chunkId,
        long size,
        String crc32c,
        String sha256,
        Integer total,
        String storedAs,
        Instant receivedAt) {}
