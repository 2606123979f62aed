package dev.scorecast.server.webhooks;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.scorecast.engine.error.Busy;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.NotFound;
import dev.scorecast.engine.error.WrongState;
import dev.scorecast.server.auth.Ids;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.config.WebhookSettings;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.quota.QuotaGuard;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A user's webhooks: register, list, delete, send a test event, read and redeliver deliveries.
 * The HTTP API and the command line both go through here, with the same checks: an endpoint's URL
 * must be https (http only with SCORECAST_WEBHOOKS_ALLOW_LOCAL) and resolve to public addresses
 * only; a user has at most {@code maxPerUser} endpoints; another user's ids are not found.
 */
public final class Webhooks {
    /** Deliveries a user may have waiting before test events and redeliveries are refused (429). */
    public static final int MAX_PENDING = 100;
    /** How long ended deliveries stay listed (and redeliverable) before they are forgotten. */
    public static final Duration KEEP = Duration.ofDays(30);
    /** Secrets: "whsec_" and 160 random bits, like API keys. */
    private static final String SECRET_PREFIX = "whsec_";

    private final Database database;
    private final WebhookRepository webhooks;
    private final DeliveryRepository deliveries;
    private final Outbox outbox;
    private final QuotaGuard quotas;
    private final WebhookSettings settings;
    private final AddressGuard guard;
    private final AddressGuard.Resolver resolver;
    private final Clock clock;

    public Webhooks(
            Database database,
            WebhookRepository webhooks,
            DeliveryRepository deliveries,
            Outbox outbox,
            QuotaGuard quotas,
            WebhookSettings settings,
            AddressGuard.Resolver resolver,
            Clock clock) {
        this.database = database;
        this.webhooks = webhooks;
        this.deliveries = deliveries;
        this.outbox = outbox;
        this.quotas = quotas;
        this.settings = settings;
        this.guard = new AddressGuard(settings.allowLocal());
        this.resolver = resolver;
        this.clock = clock;
    }

    /** A new endpoint and its signing secret, which is shown this once. */
    public record Created(Webhook webhook, String secret) {}

    /**
     * Registers {@code url} for {@code events}. The URL is checked as a delivery will check it (its
     * host looked up now, and again at every delivery).
     */
    public Created create(Principal owner, String url, Set<EventType> events) {
        Endpoint endpoint = Endpoint.parse(url, settings.allowLocal(), "url");
        try {
            endpoint.resolve(resolver, guard);
        } catch (Endpoint.Refused e) {
            throw new InvalidParameter("url", "url is refused: " + e.getMessage() + ".");
        }
        if (events.isEmpty() || events.contains(EventType.TEST)) {
            throw new InvalidParameter(
                    "events", "events must name at least one of " + names(EventType.subscribable()) + ".");
        }
        var webhook = new Webhook(Ids.next("whk"), owner.user(), endpoint.url(), events, clock.instant());
        String secret = SECRET_PREFIX + Ids.secret();
        database.transaction(c -> {
            // Racing registrations of one user count each other's insert (QuotaGuard.lockUser says why).
            quotas.lockUser(c, owner);
            int existing = webhooks.count(c, owner.user());
            if (existing >= settings.maxPerUser()) {
                throw new WrongState(
                        "url",
                        "You have " + existing + " webhook endpoints, the most one user may have"
                                + " (SCORECAST_WEBHOOKS_MAX_PER_USER); delete one with DELETE /webhooks/{webhook_id} first.");
            }
            webhooks.insert(c, webhook, secret);
            return null;
        });
        return new Created(webhook, secret);
    }

    public List<Webhook> list(Principal owner) {
        return webhooks.list(owner.user());
    }

    public Webhook find(Principal owner, String webhookId) {
        return webhooks.find(owner.user(), webhookId).orElseThrow(() -> notFound(webhookId));
    }

    /** Deletes the endpoint; its pending deliveries are never sent. */
    public void delete(Principal owner, String webhookId) {
        if (!webhooks.delete(owner.user(), webhookId)) {
            throw notFound(webhookId);
        }
    }

    /** Queues a {@code webhook.test} event to the endpoint, whatever it subscribes to; returns its delivery. */
    public Delivery test(Principal owner, String webhookId) {
        Webhook webhook = find(owner, webhookId);
        String deliveryId = database.transaction(c -> {
            requireRoom(c, owner);
            var snapshot = JsonNodeFactory.instance
                    .objectNode()
                    .put("webhook_id", webhook.id())
                    .put("url", webhook.url())
                    .put("message", "A test event from Scorecast: this endpoint receives and verifies webhooks.");
            String eventId =
                    outbox.enqueue(c, owner.user(), EventType.TEST, webhook.id(), snapshot, List.of(webhook.id()));
            return deliveries.deliveryOf(c, eventId, webhook.id());
        });
        return delivery(owner, deliveryId);
    }

    /** The newest {@code limit} deliveries to the endpoint, each with every attempt. */
    public List<Delivery> deliveries(Principal owner, String webhookId, int limit) {
        find(owner, webhookId);
        return deliveries.list(owner.user(), webhookId, limit);
    }

    /** Sends a delivered or given-up delivery's event again, as a new delivery (same event id and body). */
    public Delivery redeliver(Principal owner, String webhookId, String deliveryId) {
        find(owner, webhookId);
        String newId = database.transaction(c -> {
            String[] found = deliveries
                    .eventOf(c, owner.user(), webhookId, deliveryId)
                    .orElseThrow(() -> new NotFound(
                            "delivery_id",
                            "No delivery " + deliveryId + " of webhook " + webhookId
                                    + " exists for this API key; see GET /webhooks/" + webhookId + "/deliveries."));
            if (DeliveryState.fromWire(found[2]) == DeliveryState.PENDING) {
                throw new WrongState(
                        "delivery_id",
                        "Delivery " + deliveryId + " is still pending (it is tried again by itself);"
                                + " redeliver it once it was delivered or given up.");
            }
            requireRoom(c, owner);
            return outbox.enqueueAgain(c, owner.user(), webhookId, found[0], found[1]);
        });
        return delivery(owner, newId);
    }

    /** The owner of an endpoint, for the command line (an operator's tool, which acts for any user). */
    public Optional<Principal> ownerOf(String webhookId) {
        return webhooks.findAny(webhookId).map(w -> new Principal(w.owner()));
    }

    /** Every endpoint of every user, for the command line. */
    public List<Webhook> all() {
        return webhooks.listAll();
    }

    /** Forgets events older than {@code before} whose deliveries all ended; returns how many. */
    public int forgetEndedBefore(Instant before) {
        return deliveries.forgetEndedBefore(before);
    }

    private Delivery delivery(Principal owner, String deliveryId) {
        return deliveries.find(owner.user(), deliveryId).orElseThrow();
    }

    /** Test events and redeliveries wait behind what the user already has pending; past {@link #MAX_PENDING}, 429. */
    private void requireRoom(Connection c, Principal owner) throws SQLException {
        int pending = deliveries.pending(c, owner.user());
        if (pending >= MAX_PENDING) {
            throw new Busy(
                    "You have " + pending + " webhook deliveries waiting (at most " + MAX_PENDING + " before tests and"
                            + " redeliveries are taken); wait for them to be delivered or given up.",
                    Duration.ofMinutes(1));
        }
    }

    private static NotFound notFound(String webhookId) {
        return new NotFound("webhook_id", "No webhook " + webhookId + " exists for this API key; see GET /webhooks.");
    }

    static String names(List<EventType> types) {
        return String.join(", ", types.stream().map(EventType::wire).toList());
    }
}
