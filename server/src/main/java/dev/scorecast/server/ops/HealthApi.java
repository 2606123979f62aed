package dev.scorecast.server.ops;

import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import dev.scorecast.server.storage.BlobStore;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * {@code GET /healthz} (the process answers), {@code GET /readyz} (it can reach the database and
 * the object store, each checked within {@link #CHECK_TIMEOUT}) and {@code GET /metrics}
 * (Prometheus text), on every node and without an API key: load balancers and scrapers have none,
 * and none of them tells anything about any user.
 */
public final class HealthApi {
    public static final Set<String> PATHS = Set.of("/healthz", "/readyz", "/metrics");
    private static final Duration CHECK_TIMEOUT = Duration.ofSeconds(3);

    private final Database database;
    private final BlobStore blobs;
    private final Metrics metrics;
    private final String role;
    private final String nodeId;

    public HealthApi(Database database, BlobStore blobs, Metrics metrics, String role, String nodeId) {
        this.database = database;
        this.blobs = blobs;
        this.metrics = metrics;
        this.role = role;
        this.nodeId = nodeId;
    }

    public void register(RoutesConfig routes) {
        routes.get("/healthz", ctx -> ctx.json(Map.of("status", "ok", "role", role, "node", nodeId)));
        routes.get("/readyz", this::ready);
        routes.get("/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(metrics.render()));
    }

    private void ready(Context ctx) {
        String database = check(() -> {
            this.database.query(c -> Rows.one(c, "SELECT 1 AS one", row -> row.getInt("one")));
            return "ok";
        });
        String storage = check(() -> {
            blobs.checkReachable();
            return "ok";
        });
        var body = new LinkedHashMap<String, Object>();
        boolean ready = database.equals("ok") && storage.equals("ok");
        if (!ready) {
            body.put("error", "not_ready");
            body.put("message", "This node cannot serve yet: database " + database + ", object store " + storage + ".");
        } else {
            body.put("status", "ready");
        }
        body.put("database", database);
        body.put("storage", storage);
        body.put("role", role);
        body.put("node", nodeId);
        if (!ready) {
            ctx.header("Retry-After", "5");
        }
        ctx.status(ready ? 200 : 503).json(body);
    }

    /** "ok", or what went wrong, within the time limit: a probe must answer even when a dependency hangs. */
    private static String check(Supplier<String> probe) {
        var future = new CompletableFuture<String>();
        // Its own thread, left behind if it hangs: the answer must not wait for it.
        Thread.ofVirtual().name("readiness-check").start(() -> {
            try {
                future.complete(probe.get());
            } catch (Throwable t) {
                future.completeExceptionally(t);
            }
        });
        try {
            return future.get(CHECK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return "no answer within " + CHECK_TIMEOUT.toSeconds() + " s";
        } catch (ExecutionException e) {
            String message = e.getCause().getMessage();
            return "failing: " + (message == null ? e.getCause().getClass().getSimpleName() : message);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
