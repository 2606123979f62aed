package dev.scorecast.server.upload;

import java.util.Locale;

/** active: taking chunks. assembling: complete is running. complete: the video exists. */
public enum UploadState {
    ACTIVE,
    ASSEMBLING,
    COMPLETE;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    static UploadState fromWire(String text) {
        return valueOf(text.toUpperCase(Locale.ROOT));
    }
}
