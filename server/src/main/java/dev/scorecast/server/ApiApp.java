package dev.scorecast.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.scorecast.engine.core.Ticker;
import dev.scorecast.server.ScorecastServer.Route;
import dev.scorecast.server.api.ApiErrors;
import dev.scorecast.server.api.HeaderTimeout;
import dev.scorecast.server.api.MinimumBodyRate;
import dev.scorecast.server.api.SyncBApi;
import dev.scorecast.server.config.ServerConfig;
import dev.scorecast.server.ops.HealthApi;
import dev.scorecast.server.ops.Metrics;
import io.javalin.Javalin;
import io.javalin.compression.CompressionStrategy;
import io.javalin.config.RoutesConfig;
import io.javalin.json.JavalinJackson;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import java.util.List;
import java.util.function.Consumer;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.server.NetworkConnectionLimit;

/**
 * The node's HTTP servers as Javalin builds them: the API port with Jetty's limits (body sizes, multipart parts, slow
 * bodies and headers, open connections), the request metrics and the error answers, carrying the surfaces it is given;
 * and the operations port, when it has one of its own.
 */
final class ApiApp {
    private ApiApp() {}

    /**
     * The API port. {@code surfaces} register their routes and filters in order (the request gate before the APIs); every
     * route registered is added to {@code routes}, as the OpenAPI test compares them.
     */
    static Javalin create(
            ServerConfig config,
            ObjectMapper mapper,
            Metrics metrics,
            Ticker ticker,
            List<Route> routes,
            List<Consumer<RoutesConfig>> surfaces) {
        return Javalin.create(javalin -> {
            javalin.concurrency.useVirtualThreads = true;
            javalin.jsonMapper(new JavalinJackson(mapper, true));
            javalin.http.compressionStrategy = CompressionStrategy.NONE;
            javalin.http.maxRequestSize = config.maxJsonBytes();
            // Jetty counts multipart parts against the context's form-key limit (1,000 by default).
            javalin.jetty.modifyServletContextHandler(context -> context.setMaxFormKeys(SyncBApi.MAX_PARTS));
            // A body trickled in (slow-loris) ends in 408 once its average rate falls under the minimum
            // (MinimumBodyRate says why not Jetty's own minRequestDataRate).
            javalin.jetty.modifyServletContextHandler(handler -> handler.addFilter(
                    new FilterHolder(new MinimumBodyRate(config.uploads().minBytesPerSecond(), ticker)),
                    "/*",
                    EnumSet.of(DispatcherType.REQUEST)));
            javalin.startup.showJavalinBanner = false;
            // At most this many connections open at once: past it Jetty stops accepting until one closes (they wait in
            // the backlog).
            javalin.jetty.modifyServer(server ->
                    server.addBean(new NetworkConnectionLimit(config.ops().maxConnections(), server)));
            // Jetty's idle timeout is renewed by each header byte: headers sent a byte a second are cut off here
            // instead.
            javalin.jetty.modifyServer(server ->
                    server.addBean(new HeaderTimeout(server, config.ops().headerTimeout())));
            javalin.events.handlerAdded(info -> {
                if (info.getHttpMethod().isHttpMethod()) {
                    routes.add(new Route(info.getHttpMethod().name(), info.getPath()));
                }
            });
            javalin.requestLogger.http((ctx, millis) -> {
                var endpoint = ctx.endpoints().matchedHttpEndpoint();
                metrics.request(
                        ctx.method().name(),
                        endpoint == null ? "unmatched" : endpoint.path,
                        ctx.statusCode(),
                        millis / 1000.0);
            });
            ApiErrors.install(javalin);
            surfaces.forEach(surface -> surface.accept(javalin.routes));
        });
    }

    /** {@code /healthz}, {@code /readyz} and {@code /metrics} on a port of their own (SCORECAST_OPS_PORT). */
    static Javalin ops(HealthApi health) {
        return Javalin.create(javalin -> {
            javalin.startup.showJavalinBanner = false;
            javalin.concurrency.useVirtualThreads = true;
            ApiErrors.install(javalin);
            health.register(javalin.routes);
        });
    }
}
