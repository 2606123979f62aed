package dev.scorecast.engine.error;

import java.util.List;

/** A field is missing, malformed or out of range; the message says how to fix it. */
public final class InvalidParameter extends ScorecastException {
    private final List<FieldProblem> problems;

    public InvalidParameter(String field, String message) {
        this(field, message, List.of());
    }

    private InvalidParameter(String field, String message, List<FieldProblem> problems) {
        super("invalid_parameter", field, message, null);
        this.problems = List.copyOf(problems);
    }

    /** Several bad fields at once; the first one is the headline. */
    public static InvalidParameter of(List<FieldProblem> problems) {
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("at least one problem is needed");
        }
        FieldProblem first = problems.getFirst();
        return new InvalidParameter(first.field(), first.message(), problems);
    }

    @Override
    public List<FieldProblem> problems() {
        return problems;
    }
}
