package dev.scorecast.server.auth;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The keys revoked so far, as this node knows them: read from the database every {@link #POLL}
 * (a key is revoked by `scorecast keys revoke`, another process, so nothing tells the nodes), and
 * handed to {@code onRevoked} the first time each is seen, which ends what the key still holds
 * (its live streams, hence their session tokens) within seconds. Links made with a key ask
 * {@link #revoked} on every use.
 */
public final class RevokedKeys implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RevokedKeys.class);
    public static final Duration POLL = Duration.ofSeconds(1);

    private final ApiKeys keys;
    private final Consumer<Set<String>> onRevoked;
    private volatile Set<String> revoked = Set.of();
    /** The revoked keys whose holdings were ended (a failure leaves a key out, to be ended at the next poll). */
    private final Set<String> ended = new HashSet<>();

    private final ScheduledExecutorService poller;

    public RevokedKeys(ApiKeys keys, Consumer<Set<String>> onRevoked) {
        this.keys = keys;
        this.onRevoked = onRevoked;
        this.poller = Executors.newSingleThreadScheduledExecutor(
                r -> Thread.ofPlatform().daemon().name("scorecast-revoked-keys").unstarted(r));
        poller.scheduleWithFixedDelay(this::poll, 0, POLL.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Whether the key with id {@code keyId} is revoked (false for null: nothing was signed with a key). */
    public boolean revoked(String keyId) {
        return keyId != null && revoked.contains(keyId);
    }

    /**
     * Reads the revoked keys now and ends the holdings of newly revoked ones, as the next poll would (it runs every
     * {@link #POLL}; a test, or an operator's tool in the same process, need not wait for it).
     */
    public synchronized void poll() {
        try {
            Set<String> now = keys.revokedIds();
            revoked = now;
            Set<String> fresh = new HashSet<>(now);
            fresh.removeAll(ended);
            if (!fresh.isEmpty()) {
                onRevoked.accept(fresh);
                ended.addAll(fresh);
            }
        } catch (RuntimeException e) {
            // The database away: what was known stays, and the next poll tries again.
            LOG.warn("could not read the revoked keys: {}", e.toString());
        }
    }

    @Override
    public void close() {
        poller.shutdownNow();
    }
}
