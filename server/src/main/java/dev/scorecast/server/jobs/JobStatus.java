package dev.scorecast.server.jobs;

import java.util.Locale;

/** The status values of the spec: pending, processing, finished, error (inactive is "no such job"). */
public enum JobStatus {
    PENDING,
    PROCESSING,
    FINISHED,
    ERROR;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean isDone() {
        return this == FINISHED || this == ERROR;
    }

    public static JobStatus fromWire(String text) {
        return valueOf(text.toUpperCase(Locale.ROOT));
    }
}
