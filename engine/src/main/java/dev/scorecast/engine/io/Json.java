package dev.scorecast.engine.io;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The project's one Jackson configuration. Every JSON Scorecast reads or writes (the API's bodies,
 * analyses, plans, results, the style data) names its fields in snake_case, and a reader ignores
 * fields it does not know (a newer client, a richer data file). A place that needs more derives
 * from {@link #builder()} and says why. Each call gives a new mapper, since a mapper can be
 * reconfigured; keep it in a field.
 */
public final class Json {

    private Json() {}

    /** The configuration, to derive a mapper that needs more. */
    public static JsonMapper.Builder builder() {
        return JsonMapper.builder()
                .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    public static ObjectMapper mapper() {
        return builder().build();
    }

    /** For files a person reads too (results.json, analysis.json, the CLI's output): indented. */
    public static ObjectMapper indented() {
        return builder().enable(SerializationFeature.INDENT_OUTPUT).build();
    }
}
