package dev.scorecast.server;

import com.fasterxml.jackson.core.JsonProcessingException;
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
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The published API document as a contract every test response is held to: {@link Api}, {@link
 * SseClient}, {@link CheckedHttpClient} (which tests with clients of their own use) and the raw-socket
 * tests check each answer against what /openapi.json gives for its path, method and status: the
 * status must be listed, the media type among those listed, and a JSON body must match the schema. So a field
 * renamed in the server but not in the document (or the reverse) fails whichever test first meets
 * it, not only a test written for it. The document is the one packaged into the server, the one
 * clients download.
 */
final class OpenApiContract {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final OpenApiContract INSTANCE = new OpenApiContract(read());
    /**
     * Statuses Jetty answers before any operation sees the request (JettyErrors), on any path, as the
     * document's introduction says: a request line, URI or headers that cannot be read, a URI or
     * headers too long. They carry {@code "error": "http_<status>"}, which an operation's own 400 does
     * not, so an operation's undocumented 400 still fails.
     */
    private static final Set<Integer> BEFORE_ROUTING_STATUSES = Set.of(400, 414, 431);

    private static final JsonNode BEFORE_ROUTING = JSON.createObjectNode()
            .set(
                    "content",
                    JSON.createObjectNode()
                            .set(
                                    "application/json",
                                    JSON.createObjectNode()
                                            .set(
                                                    "schema",
                                                    JSON.createObjectNode()
                                                            .put("$ref", "#/components/schemas/Error"))));

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
     * What is wrong with answering {@code method path} with {@code status}, a body of media type
     * {@code contentType} and {@code body}, by the document; empty when nothing is. The status must
     * be listed for the operation; where the document names media types for it, the answer's type
     * must be among them; a JSON body must match the schema given for it. {@code body} is null for an
     * answer whose body the caller reads itself (a stream, an image): then only the status and the
     * type are held. Paths the document does not know (a test probing an unknown route, another
     * service) are not checked here: the router answers those.
     */
    List<String> violations(String method, String path, int status, String contentType, String body) {
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
        if (response == null && refusedBeforeRouting(status, body)) {
            response = BEFORE_ROUTING;
        }
        if (response == null) {
            return List.of(where + ": the document lists no such status for this operation (it lists "
                    + String.join(", ", iterable(responses.fieldNames())) + ")");
        }
        List<String> out = new ArrayList<>();
        JsonNode content = response.path("content");
        String type = mediaType(contentType);
        boolean hasBody = body == null || !body.isEmpty();
        if (content.size() > 0 && hasBody) {
            if (type.isEmpty() && body != null) {
                out.add(where + ": a body without a Content-Type, the document lists "
                        + String.join(", ", iterable(content.fieldNames())));
            } else if (!type.isEmpty() && !content.has(type)) {
                out.add(where + ": answered " + contentType + ", the document lists "
                        + String.join(", ", iterable(content.fieldNames())));
            }
        }
        JsonNode schema = content.path("application/json").path("schema");
        boolean json = type.equals("application/json") || (type.isEmpty() && body != null && looksLikeJson(body));
        if (schema.isMissingNode() || !json || body == null || body.isBlank()) {
            return out;
        }
        String key = response == BEFORE_ROUTING ? "before routing" : method + " " + template(path) + " " + code;
        Schema compiled = schemas.computeIfAbsent(key, k -> registry.getSchema(standalone(schema), InputFormat.JSON));
        try {
            JSON.readTree(body);
        } catch (JsonProcessingException e) {
            out.add(where + ": the body is not JSON (" + e.getOriginalMessage() + ")");
            return out;
        }
        for (Error e : compiled.validate(body, InputFormat.JSON)) {
            // The field as a JSON pointer ("/status", "/jobs/0/kind"), or the body as a whole.
            String at = e.getInstanceLocation().toString();
            out.add(where + ": " + (at.isEmpty() ? "the body" : at) + ": " + e.getMessage());
        }
        return out;
    }

    /**
     * Fails with every violation of {@code response} (by the method and path of the request it
     * answers) and the start of its body; returns the response for chaining. A body read as text or
     * bytes is checked in full; any other body (a stream, a file, discarded) only by status and
     * media type: a caller that reads such a body as JSON checks it with {@link #check(String, String,
     * int, String, String)}.
     */
    static <T> HttpResponse<T> check(HttpResponse<T> response) {
        String body = switch (response.body()) {
            case String text -> text;
            case byte[] bytes -> isJson(response) ? new String(bytes, StandardCharsets.UTF_8) : null;
            case null, default -> null;
        };
        check(
                response.request().method(),
                response.request().uri().getRawPath(),
                response.statusCode(),
                response.headers().firstValue("Content-Type").orElse(null),
                body);
        return response;
    }

    /** Fails with every violation of this answer, by {@link #violations}, and the start of its body. */
    static void check(String method, String path, int status, String contentType, String body) {
        List<String> violations = INSTANCE.violations(method, path, status, contentType, body);
        if (!violations.isEmpty()) {
            throw new AssertionError("the answer does not match /openapi.json: " + violations
                    + (body == null ? "" : "; body: " + body.substring(0, Math.min(600, body.length()))));
        }
    }

    /** Jetty's own refusal of a request it could not read, by its status and error code (JettyErrors). */
    private static boolean refusedBeforeRouting(int status, String body) {
        if (!BEFORE_ROUTING_STATUSES.contains(status) || body == null) {
            return false;
        }
        try {
            return JSON.readTree(body).path("error").asText().equals("http_" + status);
        } catch (JsonProcessingException e) {
            return false;
        }
    }

    private static boolean isJson(HttpResponse<?> response) {
        return mediaType(response.headers().firstValue("Content-Type").orElse(null))
                .equals("application/json");
    }

    /** "application/json" of "application/json; charset=utf-8"; empty when there is none. */
    private static String mediaType(String contentType) {
        return contentType == null ? "" : contentType.split(";")[0].strip().toLowerCase(Locale.ROOT);
    }

    private static boolean looksLikeJson(String body) {
        String start = body.strip();
        return start.startsWith("{") || start.startsWith("[");
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

    private static <T> Iterable<T> iterable(Iterator<T> it) {
        return () -> it;
    }
}
