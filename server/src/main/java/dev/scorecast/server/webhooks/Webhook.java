package dev.scorecast.server.webhooks;

import java.time.Instant;
import java.util.Set;

/** A registered endpoint as its owner sees it; the signing secret is never part of it. */
public record Webhook(String id, String owner, String url, Set<EventType> events, Instant createdAt) {
    public Webhook {
        events = Set.copyOf(events);
    }
}
