package dev.scorecast.server.upload;

import java.time.Instant;

/** One stored chunk. {@code storedAs} is the blob key; a re-sent index gets a new one. */
public record Chunk(int index, String chunkId, long size, String sha256, Integer total, String storedAs, Instant receivedAt) {}
