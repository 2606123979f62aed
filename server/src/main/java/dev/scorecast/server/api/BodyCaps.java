package dev.scorecast.server.api;

import dev.scorecast.engine.error.TooLarge;
import io.javalin.http.Context;
import java.util.Map;

/**
 * The most bytes each endpoint's body may declare, checked against {@code Content-Length} before a
 * handler reads a byte. Readers count what actually arrives as well (a chunked body declares
 * nothing); this check only spares the server reading megabytes it will refuse anyway, and answers a
 * client declaring gigabytes at once instead of after the first few MiB or the slow-body timeout.
 */
public final class BodyCaps {
    private final long defaultCap;
    private final Map<String, Long> byPath;

    /** {@code defaultCap} for JSON bodies; {@code byPath} for endpoints that take more (chunks, multipart). */
    public BodyCaps(long defaultCap, Map<String, Long> byPath) {
        this.defaultCap = defaultCap;
        this.byPath = Map.copyOf(byPath);
    }

    public long capOf(String path) {
        return byPath.getOrDefault(path, defaultCap);
    }

    /** Refuses a declared length above the endpoint's cap; a body without a declared length is counted as it is read. */
    public void check(Context ctx) {
        long declared = ctx.req().getContentLengthLong();
        long cap = capOf(ctx.path());
        if (declared > cap) {
            throw new TooLarge(
                    "body",
                    "The request body declares " + declared + " bytes (Content-Length); " + ctx.path()
                            + " accepts at most " + cap + " bytes. Send a smaller body"
                            + (byPath.containsKey(ctx.path()) ? " (split the file into smaller chunks)." : "."));
        }
    }
}
