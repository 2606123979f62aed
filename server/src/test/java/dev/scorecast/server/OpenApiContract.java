package dev.scorecast.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The published API document as a contract every test response is held to: {@link Api} checks each
 * JSON answer against the schema /openapi.json gives for its path, method and status, and an answer
 * with a status the document does not list for that operation is a violation too. So a field
 * renamed in the server but not in the document (or the reverse) fails whichever test first meets
 * it, not only a test written for it. The document is the one packaged into the server, the one
 * clients download.
 */
final class OpenApiContract {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final OpenApiContract INSTANCE = new OpenApiContract(read());

    private final JsonNode document;
    private final List<Route> routes = new ArrayList<>();
    private final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private final Map<String, Schema> schemas = new ConcurrentHashMap<>();

    /** A documented path: its template, as a pattern over concrete paths. */
    private record Route(String template, Pattern pattern, boolean literal) {}

    private OpenApiContract(JsonNode document) {
        this.document = document;
        document.path("paths").properties().forEach(e -> {
            String template = e.getKey();
            boolean literal = !template.contains("{");
            String regex = Pattern.quote(template).replaceAll("\\{[^}]+}", "\\\\E[^/]+\\\\Q");
            routes.add(new Route(template, Pattern.compile(regex), literal));
        });
    }

    static OpenApiContract published() {
        return INSTANCE;
    }

    /**
     * What is wrong with answering {@code method path} with {@code status} and {@code body} by the
     * document; empty when nothing is. Paths the document does not know (a test probing an unknown
     * route) are not checked here: the router answers those.
     */
    List<String> violations(String method, String path, int status, String body) {
        JsonNode operation = operation(method, path);
        if (operation == null) {
            return List.of();
        }
        JsonNode responses = operation.path("responses");
        String code = String.valueOf(status);
        JsonNode response = responses.has(code)
                ? responses.get(code)
                : responses.has(code.charAt(0) + "XX")
                        ? responses.get(code.charAt(0) + "XX")
                        : responses.get("default");
        String where = method + " " + path + " -> " + status;
        if (response == null) {
            return List.of(where + ": the document lists no such status for this operation (it lists "
                    + String.join(", ", iterable(responses.fieldNames())) + ")");
        }
        JsonNode schema = response.path("content").path("application/json").path("schema");
        if (schema.isMissingNode() || body == null || !body.strip().startsWith("{")) {
            return List.of();
        }
        String key = method + " " + template(path) + " " + code;
        Schema compiled = schemas.computeIfAbsent(key, k -> registry.getSchema(standalone(schema), InputFormat.JSON));
        List<String> out = new ArrayList<>();
        for (Error e : compiled.validate(body, InputFormat.JSON)) {
            out.add(where + ": " + e.getInstanceLocation() + " " + e.getMessage());
        }
        return out;
    }

    /**
     * What is wrong with answering {@code method path} with {@code status} and a body of media type
     * {@code contentType} (a stream the caller reads itself, such as text/event-stream): the status
     * must be listed, and when the document names media types for it, this one must be among them.
     */
    List<String> streamViolations(String method, String path, int status, String contentType) {
        List<String> out = new ArrayList<>(violations(method, path, status, null));
        JsonNode operation = operation(method, path);
        JsonNode content = operation == null
                ? null
                : operation.path("responses").path(String.valueOf(status)).get("content");
        String type =
                contentType == null ? "" : contentType.split(";")[0].strip().toLowerCase(Locale.ROOT);
        if (content != null && content.size() > 0 && !content.has(type)) {
            out.add(method + " " + path + " -> " + status + ": answered " + contentType + ", the document lists "
                    + String.join(", ", iterable(content.fieldNames())));
        }
        return out;
    }

    private JsonNode operation(String method, String path) {
        String template = template(path);
        return template == null ? null : document.path("paths").path(template).get(method.toLowerCase(Locale.ROOT));
    }

    /** The documented template a concrete path falls under; a literal path before a templated one. */
    private String template(String path) {
        String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        String templated = null;
        for (Route r : routes) {
            if (r.pattern().matcher(bare).matches()) {
                if (r.literal()) {
                    return r.template();
                }
                templated = r.template();
            }
        }
        return templated;
    }

    /**
     * {@code schema} as a document of its own: the components it refers to become its $defs, so that
     * the validator resolves {@code #/components/schemas/X} without the OpenAPI wrapper around it.
     */
    private String standalone(JsonNode schema) {
        ObjectNode copy = schema.isObject() ? ((ObjectNode) schema).deepCopy() : JSON.createObjectNode();
        copy.set("$defs", document.path("components").path("schemas").deepCopy());
        try {
            return JSON.writeValueAsString(copy).replace("#/components/schemas/", "#/$defs/");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode read() {
        try (InputStream in = OpenApiContract.class.getResourceAsStream("/openapi.json")) {
            if (in == null) {
                throw new IllegalStateException("openapi.json is missing from the test classpath; build with Maven");
            }
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static <T> Iterable<T> iterable(java.util.Iterator<T> it) {
        return () -> it;
    }
}
