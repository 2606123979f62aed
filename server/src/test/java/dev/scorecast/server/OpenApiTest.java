package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** /openapi.json describes exactly the routes the server registers, no more and no fewer. */
class OpenApiTest {
    @TempDir
    Path data;

    @Test
    void documentMatchesTheRegisteredRoutes() {
        try (TestServer server = TestServer.start(data)) {
            Api.Response r = server.api(null).get("/openapi.json");
            assertEquals(200, r.status());
            assertEquals("3.1.0", r.body().get("openapi").asText());
            Set<String> documented = new TreeSet<>();
            r.body().get("paths").properties().forEach(path -> {
                JsonNode operations = path.getValue();
                operations
                        .fieldNames()
                        .forEachRemaining(
                                method -> documented.add(method.toUpperCase(Locale.ROOT) + " " + path.getKey()));
            });
            Set<String> registered = new TreeSet<>();
            server.server.routes().forEach(route -> registered.add(route.method() + " " + route.path()));
            assertEquals(registered, documented);
        }
    }
}
