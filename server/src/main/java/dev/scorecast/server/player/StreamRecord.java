package dev.scorecast.server.player;

import dev.scorecast.server.auth.Principal;
import java.time.Instant;
import java.util.Objects;

/**
 * An active live stream as the shared database knows it: whose it is, the hash of its session
 * token, and the internal base URL of the node whose memory holds its session.
 */
public record StreamRecord(
        String id, Principal owner, String tokenHash, String nodeUrl, Instant created, Instant lastActive) {
    public StreamRecord {
        Objects.requireNonNull(id);
        Objects.requireNonNull(owner);
        Objects.requireNonNull(tokenHash);
        Objects.requireNonNull(nodeUrl);
        Objects.requireNonNull(created);
        Objects.requireNonNull(lastActive);
    }

    /** Whether {@code node} (an internal base URL) plays this stream. */
    public boolean playsOn(String node) {
        return nodeUrl.equals(node);
    }
}
