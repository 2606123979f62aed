package dev.scorecast.server.auth;

import java.util.Objects;

/**
 * The user a request acts for. Every repository call takes one, so ownership cannot be forgotten.
 * {@code keyId} is the API key the request came with (directly, or through the session token of a
 * stream that key made), or null when none did (a signed link, work a job does): links made for the
 * request carry it, so revoking the key ends them too. Two principals of one user are the same
 * owner whatever their keys: only the user takes part in equality.
 */
public record Principal(String user, String keyId) {
    public Principal {
        Objects.requireNonNull(user);
    }

    public Principal(String user) {
        this(user, null);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Principal p && p.user.equals(user);
    }

    @Override
    public int hashCode() {
        return user.hashCode();
    }
}
