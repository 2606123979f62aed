package dev.scorecast.server.webhooks;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The object an event's delivery carries as {@code data}: for a job, what {@code /sync/status}
 * answers for it (as the event's snapshot saw the job); for an upload, what
 * {@code /sync/complete_video_upload} answered. The API surface builds it (it owns those shapes);
 * null when the object no longer exists, and the snapshot is sent instead.
 */
@FunctionalInterface
public interface EventData {
    JsonNode data(String owner, EventType type, JsonNode snapshot);
}
