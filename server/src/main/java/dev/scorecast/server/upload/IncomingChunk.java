package dev.scorecast.server.upload;

import java.io.InputStream;

/**
 * A chunk as it arrives: its index, variant B's declared total, an optional SHA-256 to verify,
 * the Content-Length when the client sent one, and the bytes, read once as they stream in.
 */
public record IncomingChunk(int index, Integer total, String expectedSha256, Long declaredLength, InputStream body) {}
