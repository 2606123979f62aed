package dev.scorecast.server.webhooks;

import java.util.Locale;

/** A delivery is pending (waiting for its first or next attempt) until one attempt succeeds or its 24 hours run out. */
public enum DeliveryState {
    PENDING,
    DELIVERED,
    FAILED;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    static DeliveryState fromWire(String text) {
        return valueOf(text.toUpperCase(Locale.ROOT));
    }
}
