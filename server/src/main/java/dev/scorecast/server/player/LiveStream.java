package dev.scorecast.server.player;

import dev.scorecast.engine.live.LiveSession;
import dev.scorecast.server.auth.Principal;
import java.time.Duration;
import java.time.Instant;

/**
 * A user's live stream as the server keeps it: the engine's session, the hash of its session
 * token, and when it was last active (a control call, or any moment a listener is connected).
 */
public final class LiveStream {
    final String id;
    final Principal owner;
    final String tokenHash;
    final LiveSession session;
    final Instant created;
    private volatile Instant lastActivity;

    LiveStream(String id, Principal owner, String tokenHash, LiveSession session, Instant now) {
        this.id = id;
        this.owner = owner;
        this.tokenHash = tokenHash;
        this.session = session;
        this.created = now;
        this.lastActivity = now;
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

    /** Seconds left before the stream expires; a connected listener keeps it at the full TTL. */
    double ttlLeft(Duration ttl, Instant now) {
        if (session.listeners() > 0) {
            lastActivity = now;
        }
        double left = ttl.toMillis() / 1000.0 - Duration.between(lastActivity, now).toMillis() / 1000.0;
        return Math.max(0, Math.round(left * 10) / 10.0);
    }
}
