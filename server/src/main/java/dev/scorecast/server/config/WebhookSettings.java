package dev.scorecast.server.config;

import dev.scorecast.engine.error.InvalidParameter;
import java.time.Duration;
import java.util.Map;

/**
 * How webhooks are delivered (docs/WEBHOOKS.md). The defaults are the safe ones: https only, to
 * public addresses only, answered within 10 s, retried for 24 h.
 *
 * @param allowLocal        SCORECAST_WEBHOOKS_ALLOW_LOCAL: also http: and loopback addresses, for local
 *                          development and tests; private, link-local and metadata addresses stay refused
 * @param timeout           SCORECAST_WEBHOOKS_TIMEOUT_MS: connect, send and the receiver's answer, together (10 s)
 * @param retryFor          SCORECAST_WEBHOOKS_RETRY_HOURS: how long a failing delivery is retried (24 h)
 * @param maxPerUser        SCORECAST_WEBHOOKS_MAX_PER_USER: endpoints one user may register (10)
 * @param attemptsPerMinute SCORECAST_WEBHOOKS_ATTEMPTS_PER_MINUTE: delivery attempts one user's endpoints get from a node (600)
 * @param concurrency       SCORECAST_WEBHOOKS_CONCURRENCY: deliveries a node makes at once (16)
 * @param pollInterval      SCORECAST_WEBHOOKS_POLL_MS: how often a node looks for due deliveries (1000)
 */
public record WebhookSettings(
        boolean allowLocal,
        Duration timeout,
        Duration retryFor,
        int maxPerUser,
        int attemptsPerMinute,
        int concurrency,
        Duration pollInterval) {
    public WebhookSettings {
        if (timeout.toMillis() < 100 || timeout.toMillis() > 60_000) {
            throw new InvalidParameter(
                    "SCORECAST_WEBHOOKS_TIMEOUT_MS", "SCORECAST_WEBHOOKS_TIMEOUT_MS must be 100 to 60000.");
        }
        if (retryFor.isNegative() || retryFor.toHours() > 24 * 7) {
            throw new InvalidParameter(
                    "SCORECAST_WEBHOOKS_RETRY_HOURS", "SCORECAST_WEBHOOKS_RETRY_HOURS must be 0 (one attempt) to 168.");
        }
        if (maxPerUser < 1) {
            throw new InvalidParameter(
                    "SCORECAST_WEBHOOKS_MAX_PER_USER", "SCORECAST_WEBHOOKS_MAX_PER_USER must be at least 1.");
        }
        if (attemptsPerMinute < 1) {
            throw new InvalidParameter(
                    "SCORECAST_WEBHOOKS_ATTEMPTS_PER_MINUTE",
                    "SCORECAST_WEBHOOKS_ATTEMPTS_PER_MINUTE must be at least 1.");
        }
        if (concurrency < 1 || concurrency > 1000) {
            throw new InvalidParameter(
                    "SCORECAST_WEBHOOKS_CONCURRENCY", "SCORECAST_WEBHOOKS_CONCURRENCY must be 1 to 1000.");
        }
        if (pollInterval.toMillis() < 10) {
            throw new InvalidParameter("SCORECAST_WEBHOOKS_POLL_MS", "SCORECAST_WEBHOOKS_POLL_MS must be at least 10.");
        }
    }

    static WebhookSettings from(Settings settings) {
        return new WebhookSettings(
                settings.flag("SCORECAST_WEBHOOKS_ALLOW_LOCAL", false),
                Duration.ofMillis(settings.integer("SCORECAST_WEBHOOKS_TIMEOUT_MS", 10_000)),
                Duration.ofHours(settings.integer("SCORECAST_WEBHOOKS_RETRY_HOURS", 24)),
                settings.integer("SCORECAST_WEBHOOKS_MAX_PER_USER", 10),
                settings.integer("SCORECAST_WEBHOOKS_ATTEMPTS_PER_MINUTE", 600),
                settings.integer("SCORECAST_WEBHOOKS_CONCURRENCY", 16),
                Duration.ofMillis(settings.integer("SCORECAST_WEBHOOKS_POLL_MS", 1000)));
    }

    /** The settings of {@code env} alone (the command line reads them without a whole server configuration). */
    public static WebhookSettings fromEnvironment(Map<String, String> env) {
        return from(new Settings(env));
    }
}
