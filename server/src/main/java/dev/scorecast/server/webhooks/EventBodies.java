package dev.scorecast.server.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The JSON a delivery sends: {@code {"id", "type", "created_at", "data"}}. Built once, at the first
 * attempt of any delivery of the event, and stored: every attempt, every endpoint and every
 * redelivery then sends the very same bytes (links in it stay valid for the 7 days links live).
 */
final class EventBodies {
    private final DeliveryRepository deliveries;
    private final EventData data;
    private final ObjectMapper mapper;

    EventBodies(DeliveryRepository deliveries, EventData data, ObjectMapper mapper) {
        this.deliveries = deliveries;
        this.data = data;
        this.mapper = mapper;
    }

    /** The body of {@code eventId}; empty when the event is gone (its endpoint was deleted meanwhile). */
    Optional<byte[]> body(String eventId) {
        var event = deliveries.event(eventId);
        if (event.isEmpty()) {
            return Optional.empty();
        }
        DeliveryRepository.StoredEvent stored = event.get();
        if (stored.body() == null) {
            deliveries.setBody(eventId, build(stored));
            stored = deliveries.event(eventId).orElse(stored);
        }
        return Optional.of((stored.body() == null ? build(stored) : stored.body()).getBytes(StandardCharsets.UTF_8));
    }

    private String build(DeliveryRepository.StoredEvent event) {
        try {
            JsonNode snapshot = mapper.readTree(event.snapshot());
            JsonNode object = data.data(event.owner(), event.type(), snapshot);
            ObjectNode body = mapper.createObjectNode()
                    .put("id", event.id())
                    .put("type", event.type().wire())
                    .put("created_at", event.createdAt().toString());
            body.set("data", object == null ? snapshot : object);
            return mapper.writeValueAsString(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
