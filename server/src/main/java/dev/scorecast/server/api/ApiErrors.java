package dev.scorecast.server.api;

import dev.scorecast.engine.error.Busy;
import dev.scorecast.engine.error.InsufficientStorage;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.NotFound;
import dev.scorecast.engine.error.Overloaded;
import dev.scorecast.engine.error.ScorecastException;
import dev.scorecast.engine.error.TooLarge;
import dev.scorecast.engine.error.Unprocessable;
import dev.scorecast.engine.error.UnsupportedMedia;
import dev.scorecast.engine.error.WrongState;
import dev.scorecast.server.db.Database;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.http.BadMessageException;
import org.eclipse.jetty.io.EofException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where failures become HTTP: a status code and the envelope
 * {@code {"error", "message", "field"?, ...details}} on every surface.
 */
public final class ApiErrors {
    private static final Logger LOG = LoggerFactory.getLogger(ApiErrors.class);

    private ApiErrors() {}

    public static void install(JavalinConfig config) {
        config.jetty.modifyServer(server -> server.setErrorHandler(new JettyErrors()));
        config.routes.exception(ScorecastException.class, (e, ctx) -> answer(ctx, e));
        config.routes.exception(Unauthorized.class, (e, ctx) -> {
            ctx.header("WWW-Authenticate", e.challenge());
            write(ctx, 401, "unauthorized", e.getMessage(), "Authorization", Map.of());
        });
        // Javalin's own refusals (unknown path, wrong method) in the same envelope.
        config.routes.exception(HttpResponseException.class, (e, ctx) -> {
            if (e.getStatus() == 413) {
                // Javalin's own body reader (the player calls) stopped at maxRequestSize: a chunked body that declared
                // no length.
                write(
                        ctx,
                        413,
                        "too_large",
                        "The request body is larger than " + config.http.maxRequestSize
                                + " bytes; send a smaller JSON object.",
                        "body",
                        Map.of());
                return;
            }
            write(
                    ctx,
                    e.getStatus(),
                    e.getStatus() == 404 ? "not_found" : "http_" + e.getStatus(),
                    e.getStatus() == 404
                            ? "No endpoint " + ctx.method() + " " + ctx.path() + "; see /openapi.json for the API."
                            : e.getMessage(),
                    null,
                    Map.of());
        });
        config.routes.exception(Exception.class, (e, ctx) -> {
            // Jetty refusing the request while the handler reads it: a body trickled in below the
            // minimum rate (408), a malformed one (400). The client's doing, so its own status.
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof EofException) {
                    // The client hung up mid-request: nobody to answer, nothing went wrong here.
                    LOG.debug("client went away during {} {}", ctx.method(), ctx.path());
                    write(
                            ctx,
                            400,
                            "bad_request",
                            "The connection closed before the request was read.",
                            "body",
                            Map.of());
                    return;
                }
                if (t instanceof BadMessageException bad) {
                    boolean slow = bad.getCode() == 408;
                    write(
                            ctx,
                            bad.getCode(),
                            slow ? "request_timeout" : "bad_request",
                            slow
                                    ? "The request body arrived too slowly (" + bad.getReason()
                                            + "); send it again at a steady rate, or in smaller chunks."
                                    : "The request could not be read (" + bad.getReason() + ").",
                            "body",
                            Map.of());
                    return;
                }
            }
            if (Database.unavailable(e)) {
                // The database did not answer (a restart, a failover, a network cut): nothing the client did; it may
                // try again.
                LOG.warn("the database did not answer {} {}: {}", ctx.method(), ctx.path(), e.toString());
                ctx.header("Retry-After", "5");
                write(
                        ctx,
                        503,
                        "overloaded",
                        "The service's database does not answer just now; try again in a few seconds.",
                        null,
                        Map.of());
                return;
            }
            LOG.error("unexpected failure on {} {}", ctx.method(), ctx.path(), e);
            write(
                    ctx,
                    500,
                    "internal_error",
                    "The server failed unexpectedly; the failure was logged. Try again later.",
                    null,
                    Map.of());
        });
    }

    public static int status(ScorecastException e) {
        return switch (e) {
            case InvalidParameter ignored -> 400;
            case NotFound ignored -> 404;
            case WrongState ignored -> 409;
            case TooLarge ignored -> 413;
            case UnsupportedMedia ignored -> 415;
            case Unprocessable ignored -> 422;
            case Busy ignored -> 429;
            case Overloaded ignored -> 503;
            case InsufficientStorage ignored -> 507;
        };
    }

    private static void answer(Context ctx, ScorecastException e) {
        if (e instanceof Busy busy) {
            ctx.header(
                    "Retry-After", String.valueOf(Math.max(1, busy.retryAfter().toSeconds())));
        } else if (e instanceof Overloaded overloaded) {
            ctx.header(
                    "Retry-After",
                    String.valueOf(Math.max(1, overloaded.retryAfter().toSeconds())));
        }
        var extra = new LinkedHashMap<String, Object>(e.details());
        if (e.problems().size() > 1) {
            extra.put("problems", e.problems());
        }
        write(ctx, status(e), e.code(), e.getMessage(), e.field(), extra);
    }

    private static void write(
            Context ctx, int status, String code, String message, String field, Map<String, Object> extra) {
        var body = new LinkedHashMap<String, Object>();
        body.put("error", code);
        body.put("message", message);
        if (field != null) {
            body.put("field", field);
        }
        body.putAll(extra);
        // A refused upload may still be streaming in; closing lets the client see the answer at once.
        if (status == 413) {
            ctx.header("Connection", "close");
        } else {
            drain(ctx);
        }
        ctx.status(status).json(body);
    }

    /** The most of a refused body read and thrown away so that the client gets the answer (a chunk's worth). */
    static final long DRAIN_LIMIT = 32L << 20;

    /**
     * Reads what is left of a body the handler refused before reading it (another user's upload, a
     * missing header), up to {@link #DRAIN_LIMIT}. Why: Jetty closes a connection whose request body
     * was not read, and a client still sending the body then sees a reset connection instead of this
     * answer (CI saw AuthTest's chunk to another user's upload fail with a broken pipe once). Past the
     * limit the connection is closed after the answer, as for 413. The minimum body rate still bounds
     * how long a trickled body can hold this.
     */
    private static void drain(Context ctx) {
        long declared = ctx.req().getContentLengthLong();
        if (declared <= 0) {
            return;
        }
        if (declared > DRAIN_LIMIT) {
            ctx.header("Connection", "close");
            return;
        }
        byte[] sink = new byte[8192];
        try {
            var in = ctx.req().getInputStream();
            long left = DRAIN_LIMIT;
            int n;
            while (left > 0 && (n = in.read(sink, 0, (int) Math.min(sink.length, left))) > 0) {
                left -= n;
            }
        } catch (IOException | RuntimeException e) {
            // The body was read already (a reader), or the client went away or was too slow: nothing to drain.
            LOG.debug("not drained: {}", e.toString());
        }
    }

    /** Missing or wrong credentials. Kept apart from the engine's family: only HTTP has them. */
    public static final class Unauthorized extends RuntimeException {
        private final String challenge;

        public Unauthorized(String message, String challenge) {
            super(message);
            this.challenge = challenge;
        }

        String challenge() {
            return challenge;
        }
    }
}
