package dev.scorecast.server.webhooks;

import java.time.Instant;
import java.util.List;

/**
 * One event to one endpoint, as its owner sees it: where it stands and every attempt so far.
 * {@code nextAttemptAt} is set while it is pending, {@code endedAt} once delivered or given up.
 */
public record Delivery(
        String id,
        String webhookId,
        String eventId,
        String eventType,
        DeliveryState state,
        int attempts,
        Instant createdAt,
        Instant nextAttemptAt,
        Instant endedAt,
        List<Try> tries) {
    public Delivery {
        tries = List.copyOf(tries);
    }

    /** One attempt: when it started, how long it took, the status code (null when there was no answer) or why it failed. */
    public record Try(
            int attempt, Instant startedAt, long durationMillis, Integer statusCode, String error, String response) {}
}
