package dev.scorecast.server.auth;

import java.util.Objects;

/** The user a request acts for. Every repository call takes one, so ownership cannot be forgotten. */
public record Principal(String user) {
    public Principal {
        Objects.requireNonNull(user);
    }
}
