package dev.scorecast.server.ops;

import dev.scorecast.engine.core.Ticker;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this node can reach its database and its object store, as {@code /readyz} answers it.
 * A check asks both (each within {@link #TIMEOUT}); its result is kept for {@link #FRESH}, and one
 * check at a time is in flight: however many probes arrive, the dependencies see at most one query
 * and one request every few seconds (each probe once ran a query and an S3 HEAD of its own).
 *
 * <p>What failed is logged here, with the exception; callers get only "ok" or "unreachable", so an
 * anonymous probe learns nothing of the node's hosts and addresses.
 */
public final class Readiness {
    private static final Logger LOG = LoggerFactory.getLogger(Readiness.class);
    static final Duration FRESH = Duration.ofSeconds(3);
    static final Duration TIMEOUT = Duration.ofSeconds(3);
    /** A check hung past this is forgotten and another started (its thread is left to finish or not). */
    private static final Duration ABANDONED = Duration.ofSeconds(30);

    /** One dependency's probe: returns when it answers, throws when it does not. */
    @FunctionalInterface
    public interface Probe {
        void check() throws Exception;
    }

    /** What a check found: each dependency "ok" or "unreachable". */
    public record Result(String database, String storage) {
        public boolean ready() {
            return database.equals(OK) && storage.equals(OK);
        }
    }

    static final String OK = "ok";
    static final String UNREACHABLE = "unreachable";

    private final Probe database;
    private final Probe storage;
    private final Ticker ticker;
    private final AtomicLong checks = new AtomicLong();
    private Result last;
    private long lastAt;
    private CompletableFuture<Result> inFlight;
    private long inFlightSince;
    private Result logged;

    /** {@code ticker} times the cached result and the check in flight. */
    public Readiness(Probe database, Probe storage, Ticker ticker) {
        this.database = database;
        this.storage = storage;
        this.ticker = ticker;
    }

    /** Checks started so far (each a database query and a store request), for /metrics. */
    public long checks() {
        return checks.get();
    }

    /** The last result if fresh, else the check in flight (started now if none), waited for at most {@link #TIMEOUT}. */
    public Result now() {
        CompletableFuture<Result> pending;
        synchronized (this) {
            long now = ticker.nanos();
            if (last != null && now - lastAt < FRESH.toNanos()) {
                return last;
            }
            if (inFlight == null || now - inFlightSince > ABANDONED.toNanos()) {
                inFlight = start();
                inFlightSince = now;
            }
            pending = inFlight;
        }
        try {
            return pending.get(TIMEOUT.toMillis() + 500, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            return new Result(UNREACHABLE, UNREACHABLE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(UNREACHABLE, UNREACHABLE);
        }
    }

    private CompletableFuture<Result> start() {
        checks.incrementAndGet();
        CompletableFuture<String> db = probe("database", database);
        CompletableFuture<String> store = probe("object store", storage);
        CompletableFuture<Result> result = db.thenCombine(store, Result::new);
        result.thenAccept(this::finished);
        return result;
    }

    private synchronized void finished(Result result) {
        last = result;
        lastAt = ticker.nanos();
        inFlight = null;
        if (!result.equals(logged)) {
            if (result.ready()) {
                LOG.info("ready: the database and the object store answer");
            }
            logged = result;
        }
    }

    /** "ok", or "unreachable" after {@link #TIMEOUT} or a failure, which is logged with its details. */
    private CompletableFuture<String> probe(String what, Probe probe) {
        var future = new CompletableFuture<String>();
        var answered = new AtomicBoolean();
        // Its own thread, left behind if it hangs: the answer must not wait for it.
        Thread.ofVirtual().name("readiness-" + what.replace(' ', '-')).start(() -> {
            try {
                probe.check();
                answered.set(true);
                future.complete(OK);
            } catch (Throwable t) {
                answered.set(true);
                LOG.warn("not ready: the {} failed its check: {}", what, t.toString());
                future.complete(UNREACHABLE);
            }
        });
        return future.completeOnTimeout(UNREACHABLE, TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((r, t) -> {
                    if (!answered.get()) {
                        LOG.warn("not ready: the {} did not answer within {} s", what, TIMEOUT.toSeconds());
                    }
                });
    }
}
