package dev.scorecast.server.cli;

import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.NotFound;
import dev.scorecast.engine.io.Json;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.config.ServerConfig;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.quota.QuotaGuard;
import dev.scorecast.server.webhooks.AddressGuard;
import dev.scorecast.server.webhooks.Delivery;
import dev.scorecast.server.webhooks.DeliveryRepository;
import dev.scorecast.server.webhooks.EventType;
import dev.scorecast.server.webhooks.Outbox;
import dev.scorecast.server.webhooks.Webhook;
import dev.scorecast.server.webhooks.WebhookRepository;
import dev.scorecast.server.webhooks.Webhooks;
import java.io.PrintStream;
import java.time.Clock;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code scorecast webhooks ...}: an operator's tool, like {@code keys}. It works on the database
 * (SCORECAST_DB_URL or the data directory), for any user, with the same checks as the HTTP API
 * (the URL refused unless https to a public address, the per-user limit). Test events and
 * redeliveries are queued in the database; a running server that runs jobs sends them within its
 * poll interval. An app manages its own endpoints through /webhooks with its API key instead.
 */
final class WebhooksCommand {
    static final String USAGE = """
            scorecast webhooks create --user NAME --url URL [--events TYPE,...]
                                               register an endpoint for NAME; prints its id and secret (once)
            scorecast webhooks list [--user NAME]
                                               endpoints: ids, users, URLs, event types (never secrets)
            scorecast webhooks delete WEBHOOK_ID
                                               delete it; its pending deliveries are never sent
            scorecast webhooks test WEBHOOK_ID queue a webhook.test event; a running server sends it
            scorecast webhooks deliveries WEBHOOK_ID [--limit N]
                                               recent deliveries: state, attempts, status codes, timings
            scorecast webhooks redeliver WEBHOOK_ID DELIVERY_ID
                                               send a delivered or given-up delivery's event again""";

    private WebhooksCommand() {}

    /** The exit code: 0 done, 1 no such endpoint or delivery, 2 bad arguments. */
    static int run(List<String> args, ServerConfig config, PrintStream out, PrintStream err) {
        if (args.isEmpty()) {
            err.println("usage:\n" + USAGE);
            return 2;
        }
        String command = args.getFirst();
        List<String> rest = args.subList(1, args.size());
        boolean known = switch (command) {
            case "create" ->
                rest.size() >= 4
                        && option(rest, "--user") != null
                        && option(rest, "--url") != null
                        && rest.size() == (option(rest, "--events") == null ? 4 : 6);
            case "list" -> rest.isEmpty() || rest.size() == 2 && option(rest, "--user") != null;
            case "delete", "test" -> rest.size() == 1;
            case "deliveries" -> rest.size() == 1 || rest.size() == 3 && option(rest, "--limit") != null;
            case "redeliver" -> rest.size() == 2;
            default -> false;
        };
        if (!known) {
            err.println("usage:\n" + USAGE);
            return 2;
        }
        try (Database database = Database.open(config.dbUrl())) {
            var repository = new WebhookRepository(database);
            var deliveries = new DeliveryRepository(database);
            Clock clock = Clock.systemUTC();
            var outbox = new Outbox(
                    repository, deliveries, Json.mapper(), config.webhooks().retryFor(), clock);
            var webhooks = new Webhooks(
                    database,
                    repository,
                    deliveries,
                    outbox,
                    new QuotaGuard(config.quotas(), config.dataDir(), clock),
                    config.webhooks(),
                    AddressGuard.Resolver.SYSTEM,
                    clock);
            try {
                return switch (command) {
                    case "create" -> create(webhooks, rest, out);
                    case "list" -> list(webhooks, option(rest, "--user"), out);
                    case "delete" -> {
                        webhooks.delete(owner(webhooks, rest.getFirst()), rest.getFirst());
                        out.println("deleted " + rest.getFirst());
                        yield 0;
                    }
                    case "test" -> {
                        Delivery d = webhooks.test(owner(webhooks, rest.getFirst()), rest.getFirst());
                        out.println("queued " + d.id() + " (event " + d.eventId()
                                + "); a running server sends it within a second or so;"
                                + " see: scorecast webhooks deliveries " + rest.getFirst());
                        yield 0;
                    }
                    case "deliveries" -> deliveries(webhooks, rest, out);
                    case "redeliver" -> {
                        Delivery d = webhooks.redeliver(owner(webhooks, rest.getFirst()), rest.getFirst(), rest.get(1));
                        out.println("queued " + d.id() + " (event " + d.eventId() + ") again");
                        yield 0;
                    }
                    default -> throw new IllegalStateException(command);
                };
            } catch (NotFound e) {
                err.println("scorecast: "
                        + e.getMessage()
                                .replace("for this API key; see GET /webhooks", "; see scorecast webhooks list"));
                return 1;
            }
        }
    }

    private static int create(Webhooks webhooks, List<String> rest, PrintStream out) {
        String events = option(rest, "--events");
        Set<EventType> types = EventType.defaults();
        if (events != null) {
            types = EnumSet.noneOf(EventType.class);
            for (String name : events.split(",")) {
                String type = name.strip();
                types.add(EventType.fromWire(type)
                        .filter(t -> t != EventType.TEST)
                        .orElseThrow(() -> new InvalidParameter(
                                "--events",
                                "--events names " + type + ", not an event type; use "
                                        + EventType.subscribable().stream()
                                                .map(EventType::wire)
                                                .collect(Collectors.joining(","))
                                        + ".")));
            }
        }
        Webhooks.Created created = webhooks.create(new Principal(option(rest, "--user")), option(rest, "--url"), types);
        out.println("webhook " + created.webhook().id() + " for "
                + created.webhook().owner() + ": " + created.webhook().url());
        out.println("events: " + names(created.webhook().events()));
        out.println("secret (shown only now; it signs every delivery): " + created.secret());
        return 0;
    }

    private static int list(Webhooks webhooks, String user, PrintStream out) {
        List<Webhook> all = user == null ? webhooks.all() : webhooks.list(new Principal(user));
        out.printf("%-31s %-16s %-24s %-40s %s%n", "WEBHOOK_ID", "USER", "CREATED", "URL", "EVENTS");
        for (Webhook w : all) {
            out.printf("%-31s %-16s %-24s %-40s %s%n", w.id(), w.owner(), w.createdAt(), w.url(), names(w.events()));
        }
        return 0;
    }

    private static int deliveries(Webhooks webhooks, List<String> rest, PrintStream out) {
        int limit;
        try {
            limit = rest.size() == 3 ? Integer.parseInt(option(rest, "--limit")) : 20;
        } catch (NumberFormatException e) {
            throw new InvalidParameter("--limit", "--limit must be a whole number from 1 to 100.");
        }
        if (limit < 1 || limit > 100) {
            throw new InvalidParameter("--limit", "--limit must be a whole number from 1 to 100.");
        }
        String id = rest.getFirst();
        out.printf(
                "%-31s %-18s %-9s %-24s %s%n",
                "DELIVERY_ID", "EVENT", "STATE", "CREATED", "ATTEMPTS (status or error, ms)");
        for (Delivery d : webhooks.deliveries(owner(webhooks, id), id, limit)) {
            String tries = d.tries().stream()
                    .map(t -> (t.statusCode() != null ? t.statusCode().toString() : t.error()) + " "
                            + t.durationMillis() + "ms")
                    .collect(Collectors.joining("; "));
            out.printf(
                    "%-31s %-18s %-9s %-24s %s%s%n",
                    d.id(),
                    d.eventType(),
                    d.state().wire(),
                    d.createdAt(),
                    tries.isEmpty() ? "-" : tries,
                    d.nextAttemptAt() == null ? "" : " (next at " + d.nextAttemptAt() + ")");
        }
        return 0;
    }

    private static Principal owner(Webhooks webhooks, String webhookId) {
        return webhooks.ownerOf(webhookId)
                .orElseThrow(() -> new NotFound(
                        "webhook_id", "No webhook " + webhookId + " exists; see scorecast webhooks list."));
    }

    /** The value after {@code name} in {@code args}, or null. */
    private static String option(List<String> args, String name) {
        int at = args.indexOf(name);
        return at >= 0 && at + 1 < args.size() ? args.get(at + 1) : null;
    }

    private static String names(Set<EventType> events) {
        return Arrays.stream(EventType.values())
                .filter(events::contains)
                .map(EventType::wire)
                .collect(Collectors.joining(","));
    }
}
