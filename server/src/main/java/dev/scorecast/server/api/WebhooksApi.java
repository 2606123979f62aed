package dev.scorecast.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.webhooks.Delivery;
import dev.scorecast.server.webhooks.EventType;
import dev.scorecast.server.webhooks.Webhook;
import dev.scorecast.server.webhooks.Webhooks;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code /webhooks}: a user's endpoints (register, list, delete, test) and their deliveries (list,
 * redeliver). docs/WEBHOOKS.md describes the events, the signature and the retries.
 */
public final class WebhooksApi {
    private static final int DEFAULT_LIMIT = 20;
    private static final int MAX_LIMIT = 100;

    private final Webhooks webhooks;
    private final Requests requests;
    private final int maxPerUser;

    public WebhooksApi(Webhooks webhooks, Requests requests, int maxPerUser) {
        this.webhooks = webhooks;
        this.requests = requests;
        this.maxPerUser = maxPerUser;
    }

    public void register(RoutesConfig routes) {
        routes.post("/webhooks", this::create);
        routes.get("/webhooks", this::list);
        routes.delete("/webhooks/{webhook_id}", this::delete);
        routes.post("/webhooks/{webhook_id}/test", this::test);
        routes.get("/webhooks/{webhook_id}/deliveries", this::deliveries);
        routes.post("/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver", this::redeliver);
    }

    record Created(
            String webhookId, String url, List<String> events, String createdAt, String secret, String message) {}

    record Endpoint(String webhookId, String url, List<String> events, String createdAt) {}

    record Endpoints(List<Endpoint> webhooks, int limit) {}

    record Deleted(String webhookId, boolean deleted) {}

    record Try(int attempt, String startedAt, long durationMs, Integer statusCode, String error, String response) {}

    record DeliveryView(
            String deliveryId,
            String webhookId,
            String eventId,
            String eventType,
            String state,
            String createdAt,
            String nextAttemptAt,
            String endedAt,
            Integer lastStatusCode,
            Long lastDurationMs,
            String lastError,
            List<Try> attempts) {}

    record Deliveries(List<DeliveryView> deliveries, int limit) {}

    private void create(Context ctx) {
        JsonFields fields = requests.body(ctx);
        String url = fields.requiredString("url");
        Set<EventType> events = events(fields);
        fields.check();
        Webhooks.Created created = webhooks.create(Authenticator.principal(ctx), url, events);
        Webhook w = created.webhook();
        ctx.status(201)
                .json(new Created(
                        w.id(),
                        w.url(),
                        names(w.events()),
                        w.createdAt().toString(),
                        created.secret(),
                        "Keep the secret: it signs every delivery (Scorecast-Signature) and is not shown again."));
    }

    /** The subscribed types: every one but execution.progress when absent; each named one must exist. */
    private static Set<EventType> events(JsonFields fields) {
        JsonNode node = fields.optionalNode("events");
        if (node == null) {
            return EventType.defaults();
        }
        String known = String.join(
                ", ", EventType.subscribable().stream().map(EventType::wire).toList());
        if (!node.isArray() || node.isEmpty()) {
            fields.problem(
                    "events",
                    "events must be a non-empty list of event types (" + known + "), or left out for all but"
                            + " execution.progress.");
            return Set.of();
        }
        Set<EventType> events = EnumSet.noneOf(EventType.class);
        for (int i = 0; i < node.size(); i++) {
            JsonNode item = node.get(i);
            Optional<EventType> type = item.isTextual()
                    ? EventType.fromWire(item.asText()).filter(t -> t != EventType.TEST)
                    : Optional.empty();
            if (type.isEmpty()) {
                fields.problem(
                        "events[" + i + "]",
                        "events[" + i + "] is " + (item.isTextual() ? "\"" + item.asText() + "\"" : item.toString())
                                + ", not an event type; use one of " + known + ".");
            } else {
                events.add(type.get());
            }
        }
        return events;
    }

    private void list(Context ctx) {
        ctx.json(new Endpoints(
                webhooks.list(Authenticator.principal(ctx)).stream()
                        .map(WebhooksApi::endpoint)
                        .toList(),
                maxPerUser));
    }

    private void delete(Context ctx) {
        String id = ctx.pathParam("webhook_id");
        webhooks.delete(Authenticator.principal(ctx), id);
        ctx.json(new Deleted(id, true));
    }

    private void test(Context ctx) {
        ctx.status(202).json(view(webhooks.test(Authenticator.principal(ctx), ctx.pathParam("webhook_id"))));
    }

    private void deliveries(Context ctx) {
        int limit = limit(ctx.queryParam("limit"));
        Principal owner = Authenticator.principal(ctx);
        ctx.json(new Deliveries(
                webhooks.deliveries(owner, ctx.pathParam("webhook_id"), limit).stream()
                        .map(WebhooksApi::view)
                        .toList(),
                limit));
    }

    private void redeliver(Context ctx) {
        ctx.status(202)
                .json(view(webhooks.redeliver(
                        Authenticator.principal(ctx), ctx.pathParam("webhook_id"), ctx.pathParam("delivery_id"))));
    }

    private static int limit(String text) {
        if (text == null || text.isBlank()) {
            return DEFAULT_LIMIT;
        }
        try {
            int limit = Integer.parseInt(text.strip());
            if (limit >= 1 && limit <= MAX_LIMIT) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new InvalidParameter(
                "limit", "limit must be a whole number from 1 to " + MAX_LIMIT + ", not \"" + text + "\".");
    }

    private static Endpoint endpoint(Webhook w) {
        return new Endpoint(w.id(), w.url(), names(w.events()), w.createdAt().toString());
    }

    private static List<String> names(Set<EventType> events) {
        return events.stream().sorted().map(EventType::wire).toList();
    }

    static DeliveryView view(Delivery d) {
        List<Try> tries = d.tries().stream()
                .map(t -> new Try(
                        t.attempt(),
                        t.startedAt().toString(),
                        t.durationMillis(),
                        t.statusCode(),
                        t.error(),
                        t.response()))
                .toList();
        Try last = tries.isEmpty() ? null : tries.getLast();
        return new DeliveryView(
                d.id(),
                d.webhookId(),
                d.eventId(),
                d.eventType(),
                d.state().wire(),
                d.createdAt().toString(),
                iso(d.nextAttemptAt()),
                iso(d.endedAt()),
                last == null ? null : last.statusCode(),
                last == null ? null : last.durationMs(),
                last == null ? null : last.error(),
                tries);
    }

    private static String iso(Instant instant) {
        return instant == null ? null : instant.toString();
    }
}
