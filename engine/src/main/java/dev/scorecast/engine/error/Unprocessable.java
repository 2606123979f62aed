package dev.scorecast.engine.error;

/** Well-formed but impossible to carry out (a video longer than the limit, a section past the end). */
public final class Unprocessable extends ScorecastException {
    public Unprocessable(String field, String message) {
        super("unprocessable", field, message, null);
    }
}
