package dev.scorecast.server.api;

import dev.scorecast.engine.core.Ticker;
import dev.scorecast.engine.error.NotFound;
import dev.scorecast.server.downloads.DownloadLinks;
import dev.scorecast.server.downloads.DownloadSlots;
import dev.scorecast.server.execution.ExecutionService;
import dev.scorecast.server.storage.BlobStore;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;
import org.eclipse.jetty.io.EofException;

/**
 * {@code GET /files/<execution>/<name>}: the outputs behind the signed links that status hands
 * out. No API key: the signature is the permission, so links work in a browser or a player.
 *
 * <p>On S3 a link answers 302 to a short-lived presigned URL of the store by default. Streamed
 * through this node (the local store, or SCORECAST_PUBLIC_DOWNLOADS=proxied), a download reads the
 * store on connections of its own ({@link BlobStore#openForDownload}), at most
 * {@value #PER_FILE} of one file and {@value #PER_ADDRESS} to one address stream at once (429 past
 * that), and a reader slower than {@value #MIN_BYTES_PER_SECOND} bytes a second on average, after
 * the first {@value #GRACE_SECONDS} s, is cut off.
 */
public final class DownloadsApi {
    private static final Pattern EXECUTION = Pattern.compile("exe_[a-z2-7]{26}");
    private static final Pattern NAME = Pattern.compile("[a-z0-9_]+\\.(mp4|wav|mp3|zip|mid|json|fcpxml|otio|csv)");
    private static final Map<String, String> TYPES = Map.of(
            "mp4",
            "video/mp4",
            "wav",
            "audio/wav",
            "mp3",
            "audio/mpeg",
            "zip",
            "application/zip",
            "mid",
            "audio/midi",
            "json",
            "application/json",
            "fcpxml",
            "application/xml",
            "otio",
            "application/json",
            "csv",
            "text/csv; charset=utf-8");

    /** A redirect's URL lives long enough to start a download, not to be shared. */
    private static final Duration PRESIGNED_LIFETIME = Duration.ofMinutes(15);

    static final int PER_FILE = 4;
    static final int PER_ADDRESS = 8;
    static final long MIN_BYTES_PER_SECOND = 16 * 1024;
    static final long GRACE_SECONDS = 10;
    private static final int CHUNK = 16 * 1024;

    private final DownloadSlots slots = new DownloadSlots(PER_FILE, PER_ADDRESS);
    private final DownloadLinks links;
    private final ExecutionService executions;
    private final BlobStore blobs;
    private final boolean presigned;
    /** Times a proxied download, for the slow-reader cut-off. */
    private final Ticker ticker;

    /** {@code presigned}: answer with a redirect to the object store's own short-lived URL instead of streaming through this node. */
    public DownloadsApi(
            DownloadLinks links, ExecutionService executions, BlobStore blobs, boolean presigned, Ticker ticker) {
        this.links = links;
        this.executions = executions;
        this.blobs = blobs;
        this.presigned = presigned;
        this.ticker = ticker;
    }

    public void register(RoutesConfig routes) {
        routes.get(DownloadLinks.PREFIX + "{execution}/{name}", this::download);
    }

    private void download(Context ctx) throws IOException {
        String execution = ctx.pathParam("execution");
        String name = ctx.pathParam("name");
        if (!EXECUTION.matcher(execution).matches() || !NAME.matcher(name).matches()) {
            throw new NotFound("path", "No such file; use the links exactly as the status operation returned them.");
        }
        links.verify(
                DownloadLinks.PREFIX + execution + "/" + name,
                ctx.queryParam("expires"),
                ctx.queryParam("key"),
                ctx.queryParam("signature"));
        String key = executions
                .blobFor(execution, name)
                .orElseThrow(() -> new NotFound(
                        "path", "The execution has no " + name + " (stems are only made when multitrack is on)."));
        String extension = name.substring(name.lastIndexOf('.') + 1);
        if (presigned) {
            var url = blobs.presignedGet(key, PRESIGNED_LIFETIME, TYPES.get(extension), name);
            if (url.isPresent()) {
                ctx.header("Cache-Control", "no-store");
                ctx.redirect(url.get().toString(), io.javalin.http.HttpStatus.FOUND);
                return;
            }
        }
        try (DownloadSlots.Slot slot =
                slots.enter(execution + "/" + name, ctx.req().getRemoteAddr())) {
            stream(ctx, key, name, extension);
        }
    }

    private void stream(Context ctx, String key, String name, String extension) throws IOException {
        ctx.contentType(TYPES.get(extension));
        ctx.header("Content-Length", Long.toString(blobs.size(key)));
        ctx.header("Content-Disposition", "inline; filename=\"" + name + "\"");
        ctx.header("Cache-Control", "private, max-age=3600");
        // The signature is the permission, so any page holding the link may read it (the studio draws the waveform from
        // it).
        ctx.header("Access-Control-Allow-Origin", "*");
        try (InputStream in = blobs.openForDownload(key);
                OutputStream out = ctx.res().getOutputStream()) {
            byte[] buffer = new byte[CHUNK];
            long started = ticker.nanos();
            long sent = 0;
            for (int n; (n = in.read(buffer)) >= 0; ) {
                out.write(buffer, 0, n);
                sent += n;
                double seconds = (ticker.nanos() - started) / 1e9;
                if (seconds > GRACE_SECONDS && sent < MIN_BYTES_PER_SECOND * seconds) {
                    // The reader takes less than the minimum: it holds a connection of the store and a slot; it is cut
                    // off.
                    throw new EofException("download of " + name + " read too slowly: " + sent + " bytes in "
                            + Math.round(seconds) + " s");
                }
            }
        }
    }
}
