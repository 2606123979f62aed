package dev.scorecast.server.api;

import io.javalin.config.RoutesConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Serves docs/openapi.json (packaged into the jar) at /openapi.json, without authentication. */
public final class OpenApiDocument {
    public static final String PATH = "/openapi.json";
    private final byte[] document;

    public OpenApiDocument() {
        try (InputStream in = OpenApiDocument.class.getResourceAsStream("/openapi.json")) {
            if (in == null) {
                throw new IllegalStateException("openapi.json is missing from the classpath; build with Maven");
            }
            document = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void register(RoutesConfig routes) {
        routes.get(PATH, ctx -> ctx.contentType("application/json").result(document));
    }
}
