package dev.scorecast.server.config;

import dev.scorecast.engine.error.InvalidParameter;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Who may read a node's readiness and metrics, and how many failed authentications an address may
 * make: the operator's side of exposing a node.
 *
 * @param token                  when set (SCORECAST_OPS_TOKEN), {@code /readyz} and {@code /metrics} answer only
 *                               {@code Authorization: Bearer <token>}; {@code /healthz} stays open and says only "ok"
 * @param port                   when set (SCORECAST_OPS_PORT), {@code /readyz} and {@code /metrics} are served on this port
 *                               alone (with {@code /healthz}), not on the API's
 * @param authFailuresPerMinute  failed authentications one address may make a minute, in bursts of as many
 *                               (SCORECAST_AUTH_FAILURES_PER_MINUTE, 30); past it every authentication from it is 429
 * @param maxConnections         connections the node holds open at once (SCORECAST_MAX_CONNECTIONS, 4096); past it new ones wait
 *                               to be accepted
 * @param maxBufferedBytes       memory request bodies may take at once, over all users (SCORECAST_MAX_BUFFER_BYTES, a quarter of
 *                               the heap when 0 or unset); past it a request is 503
 * @param headerTimeout          the longest a request's headers may take from their first byte (SCORECAST_HEADER_TIMEOUT_SECONDS,
 *                               10); past it the connection is closed (slow-loris headers a byte a second)
 * @param linkSecretOverlap      how long the link secret a rotation replaced still verifies links
 *                               (SCORECAST_LINK_SECRET_OVERLAP_HOURS, 168: a download link's lifetime)
 * @param jobMemoryBytes         the heap one job's run may grow by (SCORECAST_JOB_MEMORY_BYTES, a third of the heap when 0 or
 *                               unset); past it the job ends {@code memory_budget_exceeded}
 * @param clockOffset            added to the system clock for everything this node times (SCORECAST_CLOCK_OFFSET_SECONDS, 0):
 *                               for fault campaigns, a node whose clock is ahead of the others
 */
public record OpsSettings(
        Optional<String> token,
        OptionalInt port,
        int authFailuresPerMinute,
        int maxConnections,
        long maxBufferedBytes,
        Duration headerTimeout,
        Duration linkSecretOverlap,
        long jobMemoryBytes,
        Duration clockOffset) {
    public static final OpsSettings DEFAULT = new OpsSettings(
            Optional.empty(),
            OptionalInt.empty(),
            30,
            4096,
            0,
            Duration.ofSeconds(10),
            Duration.ofHours(168),
            0,
            Duration.ZERO);

    public OpsSettings {
        if (token.isPresent() && token.get().length() < 16) {
            throw new InvalidParameter(
                    "SCORECAST_OPS_TOKEN", "SCORECAST_OPS_TOKEN must be at least 16 characters (or unset).");
        }
        if (port.isPresent() && (port.getAsInt() < 0 || port.getAsInt() > 65535)) {
            throw new InvalidParameter(
                    "SCORECAST_OPS_PORT", "SCORECAST_OPS_PORT must be between 0 and 65535 (or unset).");
        }
        if (maxConnections < 16) {
            throw new InvalidParameter("SCORECAST_MAX_CONNECTIONS", "SCORECAST_MAX_CONNECTIONS must be at least 16.");
        }
        if (maxBufferedBytes < 0) {
            throw new InvalidParameter(
                    "SCORECAST_MAX_BUFFER_BYTES",
                    "SCORECAST_MAX_BUFFER_BYTES must be 0 (a quarter of the heap) or more.");
        }
        if (headerTimeout.isNegative() || headerTimeout.isZero()) {
            throw new InvalidParameter(
                    "SCORECAST_HEADER_TIMEOUT_SECONDS", "SCORECAST_HEADER_TIMEOUT_SECONDS must be at least 1.");
        }
        if (jobMemoryBytes < 0) {
            throw new InvalidParameter(
                    "SCORECAST_JOB_MEMORY_BYTES",
                    "SCORECAST_JOB_MEMORY_BYTES must be 0 (a third of the heap) or more.");
        }
        if (linkSecretOverlap.isNegative()) {
            throw new InvalidParameter(
                    "SCORECAST_LINK_SECRET_OVERLAP_HOURS", "SCORECAST_LINK_SECRET_OVERLAP_HOURS must be 0 or more.");
        }
        if (authFailuresPerMinute < 1) {
            throw new InvalidParameter(
                    "SCORECAST_AUTH_FAILURES_PER_MINUTE", "SCORECAST_AUTH_FAILURES_PER_MINUTE must be at least 1.");
        }
    }

    static OpsSettings from(Settings settings, Map<String, String> env) {
        Optional<String> token = Optional.ofNullable(env.get("SCORECAST_OPS_TOKEN"))
                .map(String::strip)
                .filter(t -> !t.isEmpty());
        OptionalInt port = Optional.ofNullable(env.get("SCORECAST_OPS_PORT"))
                .map(String::strip)
                .filter(p -> !p.isEmpty())
                .map(p -> OptionalInt.of(settings.integer("SCORECAST_OPS_PORT", 0)))
                .orElse(OptionalInt.empty());
        return new OpsSettings(
                token,
                port,
                settings.integer("SCORECAST_AUTH_FAILURES_PER_MINUTE", DEFAULT.authFailuresPerMinute()),
                settings.integer("SCORECAST_MAX_CONNECTIONS", DEFAULT.maxConnections()),
                settings.bytes("SCORECAST_MAX_BUFFER_BYTES", DEFAULT.maxBufferedBytes()),
                Duration.ofSeconds(settings.integer("SCORECAST_HEADER_TIMEOUT_SECONDS", (int)
                        DEFAULT.headerTimeout().toSeconds())),
                Duration.ofHours(settings.integer("SCORECAST_LINK_SECRET_OVERLAP_HOURS", (int)
                        DEFAULT.linkSecretOverlap().toHours())),
                settings.bytes("SCORECAST_JOB_MEMORY_BYTES", DEFAULT.jobMemoryBytes()),
                Duration.ofSeconds(settings.integer("SCORECAST_CLOCK_OFFSET_SECONDS", 0)));
    }
}
