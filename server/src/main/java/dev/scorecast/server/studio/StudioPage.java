package dev.scorecast.server.studio;

import dev.scorecast.engine.error.NotFound;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Scorecast Studio: the web page at {@code /} and its files under {@code /studio/}, read from the
 * jar's {@code studio/} resources. The page holds no data: it asks for an API key and calls the
 * public API with it, so these routes are public while every API call still needs the key.
 */
public final class StudioPage {
    public static final String ROOT = "/";
    public static final String PREFIX = "/studio/";
    private static final Pattern FILE = Pattern.compile("[a-z0-9-]+\\.(html|css|js|svg)");
    private static final Map<String, String> TYPES = Map.of("html", "text/html; charset=utf-8", "css", "text/css; charset=utf-8",
            "js", "text/javascript; charset=utf-8", "svg", "image/svg+xml");

    private final Map<String, byte[]> files = new ConcurrentHashMap<>();
    private final Supplier<String> linkBase;

    /** {@code linkBase}: the base of the signed output links (SCORECAST_PUBLIC_URL), which the page plays and reads. */
    public StudioPage(Supplier<String> linkBase) {
        this.linkBase = linkBase;
    }

    /** Whether a request path is one of the studio's own (served without an API key). */
    public static boolean isStudioPath(String path) {
        return path.equals(ROOT) || path.startsWith(PREFIX);
    }

    public void register(RoutesConfig routes) {
        routes.get(ROOT, ctx -> serve(ctx, "index.html"));
        routes.get(PREFIX + "{file}", ctx -> serve(ctx, ctx.pathParam("file")));
    }

    private void serve(Context ctx, String name) {
        if (!FILE.matcher(name).matches()) {
            throw new NotFound("path", "The studio has no file " + name + "; open / for the studio.");
        }
        byte[] body = files.computeIfAbsent(name, StudioPage::read);
        if (body.length == 0) {
            throw new NotFound("path", "The studio has no file " + name + "; open / for the studio.");
        }
        ctx.contentType(TYPES.get(name.substring(name.lastIndexOf('.') + 1)));
        // The page and its modules change with the server; a browser asks again rather than mixing versions.
        ctx.header("Cache-Control", "no-cache");
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("Referrer-Policy", "no-referrer");
        if (name.endsWith(".html")) {
            // The output links may name another origin than the page's (SCORECAST_PUBLIC_URL), so it is allowed too.
            String links = origin(linkBase.get());
            ctx.header("Content-Security-Policy", "default-src 'self'; img-src 'self' blob: data:; media-src 'self' blob: " + links
                    + "; connect-src 'self' " + links + "; style-src 'self'; script-src 'self'; frame-ancestors 'none'");
        }
        ctx.result(body);
    }

    private static String origin(String url) {
        java.net.URI uri = java.net.URI.create(url);
        return uri.getScheme() + "://" + uri.getAuthority();
    }

    private static byte[] read(String name) {
        try (InputStream in = StudioPage.class.getResourceAsStream("/studio/" + name)) {
            return in == null ? new byte[0] : in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
