package dev.scorecast.server.webhooks;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** What a webhook can be told. {@link #TEST} is sent only by {@code POST /webhooks/{id}/test}, to any endpoint. */
public enum EventType {
    UPLOAD_COMPLETED("upload.completed"),
    ANALYSIS_FINISHED("analysis.finished"),
    ANALYSIS_FAILED("analysis.failed"),
    /** Opt-in: at each stage and each tenth of the way, so it is never among the defaults. */
    EXECUTION_PROGRESS("execution.progress"),
    EXECUTION_FINISHED("execution.finished"),
    EXECUTION_FAILED("execution.failed"),
    STREAM_ENDED("stream.ended"),
    TEST("webhook.test");

    private final String wire;

    EventType(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    /** The types an endpoint may subscribe to. */
    public static List<EventType> subscribable() {
        return Arrays.stream(values()).filter(t -> t != TEST).toList();
    }

    /** What an endpoint registered without {@code events} gets: every type but the opt-in progress. */
    public static Set<EventType> defaults() {
        Set<EventType> all = EnumSet.copyOf(subscribable());
        all.remove(EXECUTION_PROGRESS);
        return all;
    }

    public static Optional<EventType> fromWire(String text) {
        return Arrays.stream(values()).filter(t -> t.wire.equals(text)).findFirst();
    }
}
