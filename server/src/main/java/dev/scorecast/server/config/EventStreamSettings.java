package dev.scorecast.server.config;

import dev.scorecast.engine.error.InvalidParameter;
import java.time.Duration;

/**
 * Progress as Server-Sent Events ({@code GET /sync/events}).
 *
 * @param heartbeat     SCORECAST_EVENTS_HEARTBEAT_MS: a comment line this often while nothing changes (15 s),
 *                      which keeps proxies from closing the stream and finds clients that left
 * @param pollInterval  SCORECAST_EVENTS_POLL_MS: how often a node reads the jobs its streams watch (250 ms), one query for all
 * @param maxPerUser    SCORECAST_EVENTS_MAX_STREAMS: event streams one user may hold open on a node (8)
 * @param maxLifetime   SCORECAST_EVENTS_MAX_SECONDS: a stream ends after this long even if its job has not (1 h);
 *                      EventSource connects again by itself
 */
public record EventStreamSettings(Duration heartbeat, Duration pollInterval, int maxPerUser, Duration maxLifetime) {
    public EventStreamSettings {
        if (heartbeat.toMillis() < 10 || heartbeat.toMillis() > 25_000) {
            // Jetty closes a connection idle for 30 s: a quiet stream must write before that.
            throw new InvalidParameter(
                    "SCORECAST_EVENTS_HEARTBEAT_MS",
                    "SCORECAST_EVENTS_HEARTBEAT_MS must be 10 to 25000, under the" + " server's 30 s idle timeout.");
        }
        if (pollInterval.toMillis() < 10 || pollInterval.toMillis() > 10_000) {
            throw new InvalidParameter("SCORECAST_EVENTS_POLL_MS", "SCORECAST_EVENTS_POLL_MS must be 10 to 10000.");
        }
        if (maxPerUser < 1) {
            throw new InvalidParameter(
                    "SCORECAST_EVENTS_MAX_STREAMS", "SCORECAST_EVENTS_MAX_STREAMS must be at least 1.");
        }
        if (maxLifetime.toSeconds() < 1) {
            throw new InvalidParameter(
                    "SCORECAST_EVENTS_MAX_SECONDS", "SCORECAST_EVENTS_MAX_SECONDS must be at least 1.");
        }
    }

    static EventStreamSettings from(Settings settings) {
        return new EventStreamSettings(
                Duration.ofMillis(settings.integer("SCORECAST_EVENTS_HEARTBEAT_MS", 15_000)),
                Duration.ofMillis(settings.integer("SCORECAST_EVENTS_POLL_MS", 250)),
                settings.integer("SCORECAST_EVENTS_MAX_STREAMS", 8),
                Duration.ofSeconds(settings.integer("SCORECAST_EVENTS_MAX_SECONDS", 3600)));
    }
}
