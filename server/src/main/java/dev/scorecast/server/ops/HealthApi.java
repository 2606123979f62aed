package dev.scorecast.server.ops;

import dev.scorecast.server.api.ApiErrors;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code GET /healthz} (the process answers), {@code GET /readyz} (it can reach the database and
 * the object store: {@link Readiness}, cached a few seconds with one check in flight) and
 * {@code GET /metrics} (Prometheus text), on every node without an API key: load balancers and
 * scrapers have none. With SCORECAST_OPS_TOKEN set, {@code /readyz} and {@code /metrics} answer only
 * {@code Authorization: Bearer <token>} and {@code /healthz} says no more than "ok"; with
 * SCORECAST_OPS_PORT they are served on that port alone. A failure is answered in general terms
 * ("the database does not answer"); its details are in the log, never in the answer.
 */
public final class HealthApi {
    public static final Set<String> PATHS = Set.of("/healthz", "/readyz", "/metrics");
    private static final String REALM = "Bearer realm=\"scorecast-ops\"";

    private final Readiness readiness;
    private final Metrics metrics;
    private final String role;
    private final String nodeId;
    private final Optional<byte[]> token;

    public HealthApi(Readiness readiness, Metrics metrics, String role, String nodeId, Optional<String> token) {
        this.readiness = readiness;
        this.metrics = metrics;
        this.role = role;
        this.nodeId = nodeId;
        this.token = token.map(t -> t.getBytes(StandardCharsets.UTF_8));
    }

    /** All three. */
    public void register(RoutesConfig routes) {
        registerLiveness(routes);
        routes.get("/readyz", this::ready);
        routes.get("/metrics", ctx -> {
            requireToken(ctx);
            ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(metrics.render());
        });
    }

    /** {@code /healthz} alone: the API's port when readiness and metrics have a port of their own. */
    public void registerLiveness(RoutesConfig routes) {
        routes.get(
                "/healthz",
                ctx -> ctx.json(
                        token.isEmpty() || presented(ctx)
                                ? Map.of("status", "ok", "role", role, "node", nodeId)
                                : Map.of("status", "ok")));
    }

    private void ready(Context ctx) {
        requireToken(ctx);
        Readiness.Result result = readiness.now();
        var body = new LinkedHashMap<String, Object>();
        if (!result.ready()) {
            body.put("error", "not_ready");
            var failing = new ArrayList<String>();
            if (!result.database().equals(Readiness.OK)) {
                failing.add("the database");
            }
            if (!result.storage().equals(Readiness.OK)) {
                failing.add("the object store");
            }
            body.put(
                    "message",
                    "This node cannot serve yet: " + String.join(" and ", failing)
                            + (failing.size() > 1 ? " do not answer" : " does not answer") + "; its log says why.");
            ctx.header("Retry-After", "5");
        } else {
            body.put("status", "ready");
        }
        body.put("database", result.database());
        body.put("storage", result.storage());
        body.put("role", role);
        body.put("node", nodeId);
        ctx.status(result.ready() ? 200 : 503).json(body);
    }

    private void requireToken(Context ctx) {
        if (token.isPresent() && !presented(ctx)) {
            throw new ApiErrors.Unauthorized(
                    "This node's readiness and metrics need its operations token: send Authorization: Bearer"
                            + " <SCORECAST_OPS_TOKEN>.",
                    REALM);
        }
    }

    /** Whether the request carries the operations token (compared in constant time). */
    private boolean presented(Context ctx) {
        String header = ctx.header("Authorization");
        if (header == null || token.isEmpty()) {
            return false;
        }
        String[] parts = header.strip().split("\\s+", 2);
        return parts.length == 2
                && parts[0].equalsIgnoreCase("bearer")
                && MessageDigest.isEqual(parts[1].strip().getBytes(StandardCharsets.UTF_8), token.get());
    }
}
