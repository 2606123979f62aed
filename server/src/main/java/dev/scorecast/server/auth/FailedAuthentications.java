package dev.scorecast.server.auth;

import dev.scorecast.engine.error.Busy;
import java.time.Clock;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Failed authentications per client address, so that nobody can try keys (or session tokens) as
 * fast as the node answers: each address may fail {@code perMinute} times a minute, in a burst of as
 * many; past that, every authentication from it is refused 429 {@code busy} with Retry-After,
 * before any key is looked up, until its allowance has grown back. Successful calls cost nothing.
 *
 * <p>At most {@link #MAX_ADDRESSES} addresses are remembered; when full, those whose allowance has
 * grown back whole are forgotten first, then the oldest, so the table stays small whatever the
 * number of addresses. Counts are per node, on the node's clock.
 */
public final class FailedAuthentications {
    static final int MAX_ADDRESSES = 10_000;

    private final double perMinute;
    private final Clock clock;
    private final Map<String, Allowance> addresses = new ConcurrentHashMap<>();
    private final AtomicLong refused = new AtomicLong();

    /** Failures left (up to the burst) at a moment; refilled at {@code perMinute} a minute. */
    private static final class Allowance {
        double left;
        long at;

        Allowance(double left, long at) {
            this.left = left;
            this.at = at;
        }
    }

    public FailedAuthentications(int perMinute, Clock clock) {
        this.perMinute = perMinute;
        this.clock = clock;
    }

    /** 429 when {@code address} has used up its failures. */
    public void check(String address) {
        Allowance a = addresses.get(address);
        if (a == null) {
            return;
        }
        synchronized (a) {
            refill(a);
            if (a.left < 1) {
                refused.incrementAndGet();
                long wait = (long) Math.ceil((1 - a.left) * 60 / perMinute);
                throw new Busy(
                        "Too many failed authentications from this address; wait " + wait
                                + " s, then send a valid key (Authorization: Bearer <API key>).",
                        Duration.ofSeconds(Math.max(1, wait)));
            }
        }
    }

    /** One failed authentication from {@code address}. */
    public void failed(String address) {
        if (addresses.size() >= MAX_ADDRESSES && !addresses.containsKey(address)) {
            forgetSome();
        }
        Allowance a = addresses.computeIfAbsent(address, k -> new Allowance(perMinute, clock.millis()));
        synchronized (a) {
            refill(a);
            a.left = Math.max(0, a.left - 1);
        }
    }

    /** Authentications refused so far for too many failures. */
    public long refused() {
        return refused.get();
    }

    private void refill(Allowance a) {
        long now = clock.millis();
        a.left = Math.min(perMinute, a.left + (now - a.at) * perMinute / 60_000.0);
        a.at = now;
    }

    private void forgetSome() {
        for (Iterator<Allowance> it = addresses.values().iterator(); it.hasNext(); ) {
            Allowance a = it.next();
            synchronized (a) {
                refill(a);
                if (a.left >= perMinute) {
                    it.remove();
                }
            }
        }
        // Still full: an address hammering from everywhere; the oldest entries go.
        Iterator<String> oldest = addresses.keySet().iterator();
        while (addresses.size() >= MAX_ADDRESSES && oldest.hasNext()) {
            oldest.next();
            oldest.remove();
        }
    }
}
