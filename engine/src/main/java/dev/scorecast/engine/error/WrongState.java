package dev.scorecast.engine.error;

import java.util.Map;

/** The resource exists but is not in a state that allows the call (e.g. complete before every chunk). */
public final class WrongState extends ScorecastException {
    private final Map<String, Object> details;

    public WrongState(String field, String message) {
        this(field, message, Map.of());
    }

    public WrongState(String field, String message, Map<String, Object> details) {
        super("wrong_state", field, message, null);
        this.details = Map.copyOf(details);
    }

    @Override
    public Map<String, Object> details() {
        return details;
    }
}
