package dev.scorecast.server.upload;

import java.time.Instant;

/** An assembled, probed video: the input of analysis. Times in seconds. */
public record Video(
        String id,
        String owner,
        String uploadId,
        String fileName,
        String storedAs,
        long size,
        String crc32c,
        String container,
        String videoCodec,
        double duration,
        int width,
        int height,
        double fps,
        long frames,
        int rotation,
        boolean hasAudio,
        String audioCodec,
        String audioStoredAs,
        Instant createdAt) {}
