package dev.scorecast.server.studio;

import dev.scorecast.engine.error.NotFound;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Scorecast Studio: the web page at {@code /} and its files under {@code /studio/}, read from the
 * jar's {@code studio/} resources. The page holds no data: it asks for an API key and calls the
 * public API with it, so these routes are public while every API call still needs the key.
 *
 * <p>The files are read once, when the page is made, into a map that never changes afterwards: a
 * request for a name that is not there is a 404 and leaves nothing behind. (The map once filled
 * itself on demand and kept an empty entry for every unknown name asked for: anyone, without a
 * key, could grow the heap by a name at a time.)
 */
public final class StudioPage {
    public static final String ROOT = "/";
    public static final String PREFIX = "/studio/";
    private static final String RESOURCES = "/studio/";
    private static final Pattern FILE = Pattern.compile("[a-z0-9-]+\\.(html|css|js|svg)");
    private static final Map<String, String> TYPES = Map.of(
            "html",
            "text/html; charset=utf-8",
            "css",
            "text/css; charset=utf-8",
            "js",
            "text/javascript; charset=utf-8",
            "svg",
            "image/svg+xml");

    private final Map<String, byte[]> files;
    private final Supplier<String> linkBase;

    /** {@code linkBase}: the base of the signed output links (SCORECAST_PUBLIC_URL), which the page plays and reads. */
    public StudioPage(Supplier<String> linkBase) {
        this.linkBase = linkBase;
        this.files = load();
    }

    /** Whether a request path is one of the studio's own (served without an API key). */
    public static boolean isStudioPath(String path) {
        return path.equals(ROOT) || path.startsWith(PREFIX);
    }

    /** How many files the studio serves: fixed when the page is made, whatever is asked for later. */
    public int fileCount() {
        return files.size();
    }

    public void register(RoutesConfig routes) {
        routes.get(ROOT, ctx -> serve(ctx, "index.html"));
        routes.get(PREFIX + "{file}", ctx -> serve(ctx, ctx.pathParam("file")));
    }

    private void serve(Context ctx, String name) {
        byte[] body = files.get(name);
        if (body == null) {
            throw new NotFound("path", "The studio has no file " + shorten(name) + "; open / for the studio.");
        }
        ctx.contentType(TYPES.get(name.substring(name.lastIndexOf('.') + 1)));
        // The page and its modules change with the server; a browser asks again rather than mixing versions.
        ctx.header("Cache-Control", "no-cache");
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("Referrer-Policy", "no-referrer");
        if (name.endsWith(".html")) {
            // The output links may name another origin than the page's (SCORECAST_PUBLIC_URL), so it is allowed too.
            String links = origin(linkBase.get());
            ctx.header(
                    "Content-Security-Policy",
                    "default-src 'self'; img-src 'self' blob: data:; media-src 'self' blob: " + links
                            + "; connect-src 'self' " + links
                            + "; style-src 'self'; script-src 'self'; frame-ancestors 'none'");
        }
        ctx.result(body);
    }

    /** An unknown name is echoed in the error only in part: the answer stays small whatever was asked. */
    private static String shorten(String name) {
        return name.length() <= 64 ? name : name.substring(0, 64) + "...";
    }

    private static String origin(String url) {
        URI uri = URI.create(url);
        return uri.getScheme() + "://" + uri.getAuthority();
    }

    /** Every file of the {@code studio/} resources whose name the page may serve, whether in the jar or in a classes directory. */
    private static Map<String, byte[]> load() {
        URL index = StudioPage.class.getResource(RESOURCES + "index.html");
        if (index == null) {
            throw new IllegalStateException("The studio's files are missing from the class path (studio/index.html)");
        }
        try {
            URI uri = index.toURI();
            if (uri.getScheme().equals("jar")) {
                FileSystem jar;
                boolean opened = true;
                try {
                    jar = FileSystems.newFileSystem(uri, Map.of());
                } catch (FileSystemAlreadyExistsException e) {
                    jar = FileSystems.getFileSystem(uri);
                    opened = false;
                }
                try {
                    return read(jar.getPath(RESOURCES));
                } finally {
                    if (opened) {
                        jar.close();
                    }
                }
            }
            return read(Path.of(uri).getParent());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, byte[]> read(Path directory) throws IOException {
        Map<String, byte[]> read = new HashMap<>();
        try (Stream<Path> list = Files.list(directory)) {
            for (Path file : (Iterable<Path>) list::iterator) {
                String name = file.getFileName().toString();
                if (FILE.matcher(name).matches() && Files.isRegularFile(file)) {
                    read.put(name, Files.readAllBytes(file));
                }
            }
        }
        return Map.copyOf(read);
    }
}
