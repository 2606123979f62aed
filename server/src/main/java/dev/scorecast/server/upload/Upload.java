package dev.scorecast.server.upload;

import java.time.Instant;

/** An upload as stored. {@code fileSize} is declared by variant A; {@code totalChunks} by variant B. */
public record Upload(
        String id,
        String owner,
        Variant variant,
        String fileName,
        Long fileSize,
        String mediaType,
        Integer totalChunks,
        UploadState state,
        String videoId,
        Instant createdAt,
        Instant expiresAt) {}
