package dev.scorecast.server.upload;

import java.util.List;

/** The chunks received so far, in index order. */
public record UploadProgress(Upload upload, List<Chunk> chunks, long receivedBytes) {}
