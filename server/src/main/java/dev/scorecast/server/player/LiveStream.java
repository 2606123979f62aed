package dev.scorecast.server.player;

import dev.scorecast.engine.live.LiveSession;
import dev.scorecast.server.auth.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A user's live stream as the node that plays it keeps it: the engine's session, the hash of its
 * session token, and when it was last active (a control call, or any moment a listener is
 * connected) and when that was last written to the shared database.
 */
public final class LiveStream {
    final String id;
    final Principal owner;
    final String tokenHash;
    final LiveSession session;
    final Instant created;
    private volatile Instant lastActivity;
    private Instant recordedActivity;

    LiveStream(String id, Principal owner, String tokenHash, LiveSession session, Instant now) {
        this.id = id;
        this.owner = owner;
        this.tokenHash = tokenHash;
        this.session = session;
        this.created = now;
        this.lastActivity = now;
        this.recordedActivity = now;
    }

    public String id() {
        return id;
    }

    public LiveSession session() {
        return session;
    }

    void touch(Instant now) {
        lastActivity = now;
    }

    /**
     * The last activity when it is at least {@code interval} newer than what the database holds
     * (which it then counts as recorded): the database hears of a busy stream now and then, not on every call.
     */
    Optional<Instant> activityToRecord(Duration interval) {
        Instant last = lastActivity;
        if (Duration.between(recordedActivity, last).compareTo(interval) < 0) {
            return Optional.empty();
        }
        recordedActivity = last;
        return Optional.of(last);
    }

    /** Seconds left before the stream expires; a connected listener keeps it at the full TTL. */
    double ttlLeft(Duration ttl, Instant now) {
        if (session.listeners() > 0) {
            lastActivity = now;
        }
        double left =
                ttl.toMillis() / 1000.0 - Duration.between(lastActivity, now).toMillis() / 1000.0;
        return Math.max(0, Math.round(left * 10) / 10.0);
    }
}
