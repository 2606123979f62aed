package dev.scorecast.server.upload;

/** A finished upload and the video it became. */
public record CompletedUpload(Upload upload, Video video) {}
