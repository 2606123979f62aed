package dev.scorecast.engine.error;

/** The bytes are not a media file we can decode (wrong format, no video stream, corrupt header). */
public final class UnsupportedMedia extends ScorecastException {
    public UnsupportedMedia(String field, String message) {
        super("unsupported_media", field, message, null);
    }

    public UnsupportedMedia(String field, String message, Throwable cause) {
        super("unsupported_media", field, message, cause);
    }
}
