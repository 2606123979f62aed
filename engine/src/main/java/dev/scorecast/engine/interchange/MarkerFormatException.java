package dev.scorecast.engine.interchange;

/**
 * The one error of the marker file readers: what is wrong, on which line of the file and in which
 * field ("In", "start", "record in"), and how to fix it. {@link MarkerFiles} turns it into the API's
 * 422.
 */
public final class MarkerFormatException extends IllegalArgumentException {
    private final int line;
    private final String field;

    public MarkerFormatException(int line, String field, String message) {
        super("line " + line + (field == null ? "" : ", " + field) + ": " + message);
        this.line = line;
        this.field = field;
    }

    /** 1-based line of the file; 0 when the file as a whole is at fault. */
    public int line() {
        return line;
    }

    /** The field of that line, or null. */
    public String field() {
        return field;
    }
}
