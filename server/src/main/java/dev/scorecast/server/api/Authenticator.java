package dev.scorecast.server.api;

import dev.scorecast.server.auth.ApiKeys;
import dev.scorecast.server.auth.Principal;
import io.javalin.http.Context;
import java.util.Locale;

/** Checks {@code Authorization: Bearer <key>} before every API handler and remembers whose call it is. */
public final class Authenticator {
    private static final String ATTRIBUTE = "scorecast.principal";
    private static final String REALM = "Bearer realm=\"scorecast\"";

    private final ApiKeys keys;

    public Authenticator(ApiKeys keys) {
        this.keys = keys;
    }

    public void authenticate(Context ctx) {
        String header = ctx.header("Authorization");
        if (header == null || header.isBlank()) {
            throw new ApiErrors.Unauthorized("The Authorization header is missing; send Authorization: Bearer <API key>.", REALM);
        }
        String[] parts = header.strip().split("\\s+", 2);
        if (parts.length != 2 || !parts[0].toLowerCase(Locale.ROOT).equals("bearer")) {
            throw new ApiErrors.Unauthorized("The Authorization header must be \"Bearer <API key>\".", REALM + ", error=\"invalid_request\"");
        }
        Principal principal = keys.verify(parts[1].strip()).orElseThrow(() -> new ApiErrors.Unauthorized(
                "The API key is not valid; create one with: bin/scorecast keys create --user NAME.", REALM + ", error=\"invalid_token\""));
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
