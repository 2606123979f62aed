package dev.scorecast.server.api;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty refuses some requests before any route sees them (a URI or headers too long, a malformed
 * request line); its default page is HTML. This writes the same JSON envelope as {@link ApiErrors}
 * instead, so every refusal a client gets has one shape.
 */
final class JettyErrors extends ErrorHandler {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        int status = response.getStatus();
        String reason = HttpStatus.getMessage(status);
        String message = switch (status) {
            case 414 -> "The request's URI is too long; send long values in the JSON body, not the query.";
            case 431 -> "The request's headers are too large; send fewer or shorter headers.";
            default -> "The request could not be read (" + reason + "); check its request line, headers and body.";
        };
        String body = "{\"error\":\"http_" + status + "\",\"message\":\"" + message + "\"}";
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
        return true;
    }
}
