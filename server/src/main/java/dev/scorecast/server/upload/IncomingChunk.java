package dev.scorecast.server.upload;

import java.io.InputStream;

/**
 * A chunk as it arrives: its index, variant B's declared total, the checksums the client asks us
 * to verify (each optional), the Content-Length when the client sent one, and the bytes, read
 * once as they stream in.
 */
public record IncomingChunk(
        int index,
        Integer total,
        String expectedCrc32c,
        String expectedSha256,
        Long declaredLength,
        InputStream body) {}
