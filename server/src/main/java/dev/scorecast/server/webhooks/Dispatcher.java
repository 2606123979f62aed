package dev.scorecast.server.webhooks;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.scorecast.engine.core.Ticker;
import dev.scorecast.server.config.WebhookSettings;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends due deliveries, on every node that runs jobs. A round takes the due deliveries (oldest
 * first, each after any earlier one about the same object), claims each, and sends up to
 * {@code concurrency} at once, each on a virtual thread of its own; a 2xx ends a delivery, anything
 * else schedules the next attempt by {@link Backoff} until its 24 hours are up. Rounds follow each
 * other while there is work, and otherwise wait for the poll interval or for this node's
 * {@link Outbox} to ring. Every time here (when due, when to give up) is the service's clock, so a
 * test can move it on; the 10 s answer limit is real time.
 */
public final class Dispatcher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);
    /** A claim outlives the longest attempt by this much; past it, another node may send the delivery again. */
    private static final Duration LEASE_MARGIN = Duration.ofMinutes(1);

    private final DeliveryRepository deliveries;
    private final WebhookRepository webhooks;
    private final EventBodies bodies;
    private final Sender sender;
    private final WebhookSettings settings;
    private final Clock clock;
    private final String nodeId;
    private final Doorbell doorbell;
    private final RandomGenerator random;
    private final UserRate rate;
    private final Semaphore sending;
    private volatile Thread loop;
    private volatile boolean closed;

    public Dispatcher(
            DeliveryRepository deliveries,
            WebhookRepository webhooks,
            Outbox outbox,
            EventData data,
            Sender sender,
            WebhookSettings settings,
            Clock clock,
            String nodeId,
            ObjectMapper mapper,
            RandomGenerator random) {
        this.deliveries = deliveries;
        this.webhooks = webhooks;
        this.bodies = new EventBodies(deliveries, data, mapper);
        this.sender = sender;
        this.settings = settings;
        this.clock = clock;
        this.nodeId = nodeId;
        this.doorbell = outbox.doorbell();
        this.random = random;
        this.rate = new UserRate(settings.attemptsPerMinute(), Ticker.SYSTEM);
        this.sending = new Semaphore(settings.concurrency());
    }

    /** Lets go of what an earlier run of this node claimed (those deliveries go again), then starts sending. */
    public void start() {
        int released = deliveries.releaseClaims(nodeId);
        if (released > 0) {
            LOG.info(
                    "released {} webhook deliveries an earlier run of node {} was sending; they are sent again",
                    released,
                    nodeId);
        }
        loop = Thread.ofVirtual().name("webhook-dispatcher").start(this::run);
    }

    private void run() {
        while (!closed) {
            try {
                if (deliverDue() == 0) {
                    doorbell.await(settings.pollInterval());
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // The database away for a moment: the queue is durable, the next round picks up where this one stopped.
                LOG.warn(
                        "a round of webhook deliveries failed; trying again in {} ms",
                        settings.pollInterval().toMillis(),
                        e);
                try {
                    Thread.sleep(settings.pollInterval());
                } catch (InterruptedException stop) {
                    return;
                }
            }
        }
    }

    /** One round: sends what is due now and returns once every attempt of it has ended. Returns how many were attempted. */
    public int deliverDue() throws InterruptedException {
        long now = clock.millis();
        List<DeliveryRepository.Due> due = deliveries.due(now, settings.concurrency() * 4);
        int started = 0;
        try (var threads = Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("webhook-delivery-", 0).factory())) {
            for (DeliveryRepository.Due delivery : due) {
                if (closed || !rate.tryTake(delivery.owner())) {
                    continue;
                }
                if (!deliveries.claim(
                        delivery.id(),
                        nodeId,
                        now,
                        now + settings.timeout().plus(LEASE_MARGIN).toMillis())) {
                    continue;
                }
                sending.acquire();
                started++;
                threads.submit(() -> {
                    try {
                        deliver(delivery);
                    } finally {
                        sending.release();
                    }
                });
            }
        }
        return started;
    }

    private void deliver(DeliveryRepository.Due due) {
        int attempt = due.attempts() + 1;
        Instant startedAt = clock.instant();
        Attempt result;
        try {
            var target = webhooks.target(due.webhookId());
            var body = bodies.body(due.eventId());
            if (target.isEmpty() || body.isEmpty()) {
                return; // The endpoint was deleted meanwhile, and its deliveries with it.
            }
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put(WebhookSigner.HEADER, WebhookSigner.header(target.get().secret(), startedAt, body.get()));
            headers.put("Scorecast-Event-Id", due.eventId());
            headers.put("Scorecast-Delivery-Id", due.id());
            headers.put("Scorecast-Attempt", Integer.toString(attempt));
            result = sender.post(target.get().url(), headers, body.get());
        } catch (RuntimeException e) {
            LOG.warn("webhook delivery {} could not be attempted", due.id(), e);
            result = Attempt.failed(
                    "internal: the delivery could not be attempted ("
                            + e.getClass().getSimpleName() + "); it is tried again",
                    0);
        }
        long now = clock.millis();
        if (result.delivered()) {
            deliveries.finish(due, attempt, startedAt, result, DeliveryState.DELIVERED, now, now);
            return;
        }
        long next = now + Backoff.after(attempt, random).toMillis();
        DeliveryState state = next > due.giveUpAt() ? DeliveryState.FAILED : DeliveryState.PENDING;
        if (state == DeliveryState.FAILED) {
            LOG.info(
                    "webhook delivery {} given up after {} attempts: {}",
                    due.id(),
                    attempt,
                    result.error() != null ? result.error() : "HTTP " + result.statusCode());
        }
        deliveries.finish(due, attempt, startedAt, result, state, next, now);
    }

    @Override
    public void close() {
        closed = true;
        Thread running = loop;
        if (running != null) {
            running.interrupt();
            try {
                running.join(Duration.ofSeconds(15));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
