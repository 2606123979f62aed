package dev.scorecast.server.upload;

/** What the server stored for one chunk. */
public record ChunkReceipt(String uploadId, int index, String chunkId, long size, String crc32c, String sha256) {}
