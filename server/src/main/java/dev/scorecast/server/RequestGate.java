package dev.scorecast.server;

import dev.scorecast.server.api.Authenticator;
import dev.scorecast.server.api.BodyCaps;
import dev.scorecast.server.api.HlsApi;
import dev.scorecast.server.api.OpenApiDocument;
import dev.scorecast.server.downloads.DownloadLinks;
import dev.scorecast.server.ops.HealthApi;
import dev.scorecast.server.quota.MemoryBudget;
import dev.scorecast.server.quota.RequestsInFlight;
import dev.scorecast.server.studio.StudioPage;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;

/**
 * What every client request passes before its handler, in order: the body cap (a declared body over it is refused before
 * anything reads it), then, unless the path is {@linkplain #isPublic public}, the API key, the user's count of requests in
 * flight and the node's memory budget for the body; and after it, what the request held is let go however it ended.
 */
final class RequestGate {
    /** The request attribute naming the user whose in-flight request this is (RequestsInFlight). */
    private static final String IN_FLIGHT = "scorecast.inFlight";
    /** The request attribute holding what its body reserved of the node's memory budget (MemoryBudget). */
    private static final String BUFFERED = "scorecast.buffered";

    private final BodyCaps bodyCaps;
    private final Authenticator authenticator;
    private final RequestsInFlight inFlight;
    private final MemoryBudget memory;
    private final long maxJsonBytes;

    RequestGate(
            BodyCaps bodyCaps,
            Authenticator authenticator,
            RequestsInFlight inFlight,
            MemoryBudget memory,
            long maxJsonBytes) {
        this.bodyCaps = bodyCaps;
        this.authenticator = authenticator;
        this.inFlight = inFlight;
        this.memory = memory;
        this.maxJsonBytes = maxJsonBytes;
    }

    /**
     * Whether {@code path} is served without an API key: the API description, downloads that carry their own signature,
     * the studio page, health and metrics (for load balancers and scrapers), and the shared experiences' HLS, the same for
     * every listener so that a CDN can cache it (docs/PLAYER.md, "HLS").
     */
    static boolean isPublic(String path) {
        return path.equals(OpenApiDocument.PATH)
                || HealthApi.PATHS.contains(path)
                || path.startsWith(DownloadLinks.PREFIX)
                || StudioPage.isStudioPath(path)
                || path.startsWith(HlsApi.PREFIX);
    }

    void register(RoutesConfig routes) {
        routes.beforeMatched(bodyCaps::check);
        routes.beforeMatched(this::enter);
        routes.afterMatched(this::leave);
    }

    private void enter(Context ctx) {
        if (isPublic(ctx.path())) {
            return;
        }
        authenticator.authenticate(ctx);
        String user = Authenticator.principal(ctx).user();
        // Links made for this request carry its key, so revoking the key ends them (cleared in leave).
        DownloadLinks.issuer(Authenticator.principal(ctx).keyId());
        inFlight.enter(user);
        ctx.attribute(IN_FLIGHT, user); // counted: leave lets it go, however the request ended
        // What its body may cost in memory, over every user's requests on this node (503 when it does not fit).
        long cost = MemoryBudget.cost(ctx.contentType(), ctx.req().getContentLengthLong(), maxJsonBytes);
        ctx.attribute(BUFFERED, memory.reserve(cost));
    }

    private void leave(Context ctx) {
        DownloadLinks.clearIssuer();
        String user = ctx.attribute(IN_FLIGHT);
        if (user != null) {
            ctx.attribute(IN_FLIGHT, null);
            inFlight.leave(user);
        }
        Long buffered = ctx.attribute(BUFFERED);
        if (buffered != null) {
            ctx.attribute(BUFFERED, null);
            memory.release(buffered);
        }
    }
}
