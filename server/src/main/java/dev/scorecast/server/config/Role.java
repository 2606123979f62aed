package dev.scorecast.server.config;

import dev.scorecast.engine.error.InvalidParameter;
import java.util.Locale;

/**
 * What a node does. {@code api} answers clients and plays live streams but runs no jobs;
 * {@code worker} runs jobs and answers only health and metrics; {@code all} (one machine) does both.
 */
public enum Role {
    API,
    WORKER,
    ALL;

    public boolean servesClients() {
        return this != WORKER;
    }

    public boolean runsJobs() {
        return this != API;
    }

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Role parse(String text, String field) {
        try {
            return valueOf(text.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidParameter(field, field + " must be api, worker or all, not \"" + text + "\".");
        }
    }
}
