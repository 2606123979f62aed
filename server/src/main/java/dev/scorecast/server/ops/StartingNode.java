package dev.scorecast.server.ops;

import io.javalin.Javalin;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node whose database or object store does not answer when it starts keeps trying, as
 * orchestrators expect, instead of exiting: meanwhile it holds its port and answers {@code /healthz}
 * 200 (the process lives, starting), {@code /readyz} 503 and everything else 503 {@code not_ready},
 * each with Retry-After. The details of what failed go to the log only. Failures that waiting cannot
 * mend (a setting, a migration that does not apply) still end the start at once.
 */
public final class StartingNode implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StartingNode.class);
    private static final long FIRST_DELAY_MILLIS = 1000;
    private static final long MOST_DELAY_MILLIS = 10_000;

    private final Javalin probe;

    private StartingNode(Javalin probe) {
        this.probe = probe;
    }

    /**
     * {@code open} once it succeeds: tried at once, then again after 1, 2, 4 ... 10 s while it fails
     * for want of an answer, with a starting node on {@code host}:{@code port} answering meanwhile.
     * Its port is free again when this returns; {@link #port} tells which it was (for port 0).
     */
    public static <T> Opened<T> await(String host, int port, Supplier<T> open) {
        StartingNode starting = null;
        long delay = FIRST_DELAY_MILLIS;
        try {
            while (true) {
                try {
                    T value = open.get();
                    int bound = starting == null ? port : starting.port();
                    return new Opened<>(value, bound);
                } catch (RuntimeException e) {
                    if (!unreachable(e)) {
                        throw e;
                    }
                    if (starting == null) {
                        starting = new StartingNode(probe(host, port));
                    }
                    LOG.warn(
                            "the database or the object store does not answer ({}); answering /readyz 503 and trying again in {} s",
                            e.toString(),
                            delay / 1000);
                    sleep(delay);
                    delay = Math.min(MOST_DELAY_MILLIS, delay * 2);
                }
            }
        } finally {
            if (starting != null) {
                starting.close();
            }
        }
    }

    /** What {@link #await} opened, and the port the starting node held (the one to listen on). */
    public record Opened<T>(T value, int port) {}

    int port() {
        return probe.port();
    }

    /** Whether {@code e} says a dependency did not answer (worth waiting for), rather than that something is wrong. */
    static boolean unreachable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException
                    || t instanceof SocketTimeoutException
                    || t instanceof UnknownHostException
                    || t instanceof NoRouteToHostException) {
                return true;
            }
            if (t instanceof SQLException sql
                    && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("08") || sql.getSQLState().equals("57P03"))) {
                return true; // connection exceptions; PostgreSQL starting up
            }
            if (t.getClass().getName().equals("software.amazon.awssdk.core.exception.SdkClientException")
                    || t.getClass().getName().equals("software.amazon.awssdk.core.exception.ApiCallTimeoutException")) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    private static Javalin probe(String host, int port) {
        Javalin app = Javalin.create(c -> {
            c.startup.showJavalinBanner = false;
            c.routes.get("/healthz", ctx -> ctx.json(Map.of("status", "starting")));
            c.routes.before(ctx -> {
                if (!ctx.path().equals("/healthz")) {
                    ctx.header("Retry-After", "5");
                    ctx.status(503)
                            .json(
                                    Map.of(
                                            "error",
                                            "not_ready",
                                            "message",
                                            "This node is starting: its database or object store does not answer yet; try again shortly."));
                    ctx.skipRemainingHandlers();
                }
            });
        });
        app.start(host, port);
        LOG.info("starting node answering on port {} until its database and object store answer", app.port());
        return app;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the database and the object store", e);
        }
    }

    @Override
    public void close() {
        probe.stop();
    }
}
