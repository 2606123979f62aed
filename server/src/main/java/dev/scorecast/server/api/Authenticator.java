package dev.scorecast.server.api;

import dev.scorecast.server.auth.ApiKeys;
import dev.scorecast.server.auth.FailedAuthentications;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.auth.RevokedKeys;
import dev.scorecast.server.player.PlayerService;
import io.javalin.http.Context;
import java.util.Locale;
import java.util.Optional;

/**
 * Checks {@code Authorization: Bearer <key>} before every API handler and remembers whose call it
 * is. Player calls ({@code /player/...}) also accept the session token of the caller's stream, and
 * the stream itself its signed link (so that {@code <audio src>} needs no header), and a job's event
 * stream its signed events link (so that EventSource needs none either).
 */
public final class Authenticator {
    static final String PLAYER_PREFIX = "/player/";

    private static final String ATTRIBUTE = "scorecast.principal";
    private static final String REALM = "Bearer realm=\"scorecast\"";

    private final ApiKeys keys;
    /** The player vouches for its own credentials (session tokens, signed stream links); nothing else here knows streams. */
    private final PlayerService player;
    /** Signed links to one job's events (EventSource sends no header). */
    private final EventLinks eventLinks;

    private final FailedAuthentications failures;
    private final RevokedKeys revoked;

    public Authenticator(
            ApiKeys keys,
            PlayerService player,
            EventLinks eventLinks,
            FailedAuthentications failures,
            RevokedKeys revoked) {
        this.revoked = revoked;
        this.keys = keys;
        this.player = player;
        this.eventLinks = eventLinks;
        this.failures = failures;
    }

    /**
     * Who calls: 401 for a missing or wrong credential, counted against the caller's address; 429
     * before any lookup once that address has failed too often ({@link FailedAuthentications}).
     */
    public void authenticate(Context ctx) {
        String address = ctx.req().getRemoteAddr();
        failures.check(address);
        try {
            identify(ctx);
        } catch (ApiErrors.Unauthorized e) {
            failures.failed(address);
            throw e;
        }
    }

    private void identify(Context ctx) {
        boolean playerCall = ctx.path().startsWith(PLAYER_PREFIX);
        if (playerCall && ctx.header("Authorization") == null && ctx.queryParam("signature") != null) {
            ctx.attribute(
                    ATTRIBUTE,
                    player.streamLink(
                                    ctx.path(),
                                    ctx.queryParam("stream_id"),
                                    ctx.queryParam("expires"),
                                    ctx.queryParam("signature"))
                            .orElseThrow(() -> new ApiErrors.Unauthorized(
                                    "The stream link is not valid or has expired; use the stream_url from create-stream.",
                                    REALM)));
            return;
        }
        if (ctx.path().equals(EventStreamApi.PATH)
                && ctx.header("Authorization") == null
                && ctx.queryParam("signature") != null) {
            ctx.attribute(
                    ATTRIBUTE,
                    eventLinks
                            .verify(
                                    ctx.queryParam("execution_id"),
                                    ctx.queryParam("analysis_id"),
                                    ctx.queryParam("expires"),
                                    ctx.queryParam("key"),
                                    ctx.queryParam("signature"))
                            .orElseThrow(() -> new ApiErrors.Unauthorized(
                                    "The events link is not valid or has expired;"
                                            + " use the events_url of /sync/execute or /sync/video_analysis, or send Authorization: Bearer <API key>.",
                                    REALM)));
            return;
        }
        String header = ctx.header("Authorization");
        if (header == null || header.isBlank()) {
            throw new ApiErrors.Unauthorized(
                    "The Authorization header is missing; send Authorization: Bearer <API key>.", REALM);
        }
        String[] parts = header.strip().split("\\s+", 2);
        if (parts.length != 2 || !parts[0].toLowerCase(Locale.ROOT).equals("bearer")) {
            throw new ApiErrors.Unauthorized(
                    "The Authorization header must be \"Bearer <API key>\".", REALM + ", error=\"invalid_request\"");
        }
        String credential = parts[1].strip();
        // A session token of a stream whose key was revoked a moment ago, before the stream was ended.
        Optional<Principal> viaSession = playerCall
                ? player.sessionToken(credential).filter(p -> !revoked.revoked(p.keyId()))
                : Optional.empty();
        Principal principal = viaSession
                .or(() -> keys.verify(credential))
                .orElseThrow(() -> new ApiErrors.Unauthorized(
                        "The API key is not valid; create one with: bin/scorecast keys create --user NAME.",
                        REALM + ", error=\"invalid_token\""));
        ctx.attribute(ATTRIBUTE, principal);
    }

    public static Principal principal(Context ctx) {
        Principal principal = ctx.attribute(ATTRIBUTE);
        if (principal == null) {
            throw new IllegalStateException("handler registered without authentication: " + ctx.path());
        }
        return principal;
    }
}
