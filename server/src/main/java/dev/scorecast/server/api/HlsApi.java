package dev.scorecast.server.api;

import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.NotFound;
import dev.scorecast.engine.error.Overloaded;
import dev.scorecast.engine.live.Experience;
import dev.scorecast.engine.live.ExperienceCatalog;
import dev.scorecast.server.player.HlsChannel;
import dev.scorecast.server.player.HlsPublisher;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Shared experiences as low-latency HLS ({@code /player/hls/{experience}/...}; docs/PLAYER.md, "HLS"): the playlist,
 * the initialization segment, 2 s segments and 0.5 s parts of the music every listener of the experience hears alike.
 * Public, without credentials: the content is the same for everyone and listed by {@code GET /player/genres}, so a CDN
 * can cache one copy for all. The playlist lives a second; every other file is immutable (its name holds the channel's
 * run and its number, never reused).
 */
public final class HlsApi {
    public static final String PREFIX = "/player/hls/";
    private static final Pattern SEGMENT = Pattern.compile("([0-9a-z]+)-s([0-9]{1,18})\\.m4s");
    private static final Pattern PART = Pattern.compile("([0-9a-z]+)-p([0-9]{1,18})\\.([0-9])\\.m4s");
    /** How long a blocking playlist reload or a hinted part may wait: three target durations, as the HLS specification allows. */
    private static final long WAIT_MILLIS = 6000;
    /** How long the first request waits for a new channel's first segment. */
    private static final long FIRST_MILLIS = 10_000;

    private static final String PLAYLIST_CACHE = "public, max-age=1";
    private static final String IMMUTABLE = "public, max-age=31536000, immutable";

    private final HlsPublisher publisher;
    private final ExperienceCatalog experiences;

    public HlsApi(HlsPublisher publisher, ExperienceCatalog experiences) {
        this.publisher = publisher;
        this.experiences = experiences;
    }

    public void register(RoutesConfig routes) {
        routes.get(PREFIX + "{experience}/index.m3u8", this::playlist);
        routes.get(PREFIX + "{experience}/init.mp4", this::init);
        // Under media/: a path of its own, which the playlist's and init's paths can never be mistaken for.
        routes.get(PREFIX + "{experience}/media/{file}", this::media);
    }

    private HlsChannel channel(Context ctx) {
        String id = ctx.pathParam("experience");
        Experience e = experiences
                .find(id)
                .orElseThrow(() -> new NotFound(
                        "experience",
                        "No experience \"" + id + "\"; GET /player/genres lists them (each id is an experience)."));
        return publisher.channel(e);
    }

    private void playlist(Context ctx) throws InterruptedException {
        Long msn = number(ctx, "_HLS_msn");
        Long part = number(ctx, "_HLS_part");
        if (part != null && msn == null) {
            throw new InvalidParameter(
                    "_HLS_part",
                    "_HLS_part needs _HLS_msn: ask for a part of a segment, e.g. ?_HLS_msn=12&_HLS_part=2.");
        }
        HlsChannel c = channel(ctx);
        if (!c.await(0, -1, FIRST_MILLIS)) {
            throw new Overloaded(
                    "The experience's HLS channel is starting: no segment yet; try again in a moment.",
                    Duration.ofSeconds(2));
        }
        if (msn != null) {
            long[] next = c.next();
            // A request more than two segments ahead of the live edge could never be answered in time (HLS: 400).
            if (msn > next[0] + 2) {
                throw new InvalidParameter(
                        "_HLS_msn",
                        "_HLS_msn " + msn + " is more than two segments past the live edge (" + next[0] + ").");
            }
            c.await(msn, part == null ? -1 : (int) Math.min(part, HlsChannel.PARTS_PER_SEGMENT), WAIT_MILLIS);
        }
        headers(ctx, PLAYLIST_CACHE);
        ctx.contentType("application/vnd.apple.mpegurl").result(c.playlist());
    }

    private void init(Context ctx) {
        HlsChannel c = channel(ctx);
        headers(ctx, IMMUTABLE);
        ctx.contentType("audio/mp4").result(c.init());
    }

    private void media(Context ctx) throws InterruptedException {
        String file = ctx.pathParam("file");
        HlsChannel c = channel(ctx);
        Matcher s = SEGMENT.matcher(file);
        Matcher p = PART.matcher(file);
        byte[] bytes = null;
        if (s.matches() && s.group(1).equals(c.run())) {
            long n = Long.parseLong(s.group(2));
            if (c.await(n, -1, n <= c.next()[0] + 1 ? WAIT_MILLIS : 0)) {
                bytes = c.segment(n);
            }
        } else if (p.matches() && p.group(1).equals(c.run())) {
            long n = Long.parseLong(p.group(2));
            int i = Integer.parseInt(p.group(3));
            // The preload hint names the next part before it exists: the request waits for it.
            if (c.await(n, i, n <= c.next()[0] + 1 ? WAIT_MILLIS : 0)) {
                bytes = c.part(n, i);
            }
        }
        if (bytes == null) {
            throw new NotFound(
                    "file",
                    "No " + file + " in " + ctx.pathParam("experience")
                            + "'s HLS window; fetch index.m3u8 for the files there now.");
        }
        headers(ctx, IMMUTABLE);
        ctx.contentType("audio/mp4").result(bytes);
    }

    private static void headers(Context ctx, String cache) {
        ctx.header("Cache-Control", cache);
        ctx.header("Access-Control-Allow-Origin", "*");
        ctx.header("X-Content-Type-Options", "nosniff");
    }

    private static Long number(Context ctx, String name) {
        String v = ctx.queryParam(name);
        if (v == null) {
            return null;
        }
        try {
            long n = Long.parseLong(v);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // named below
        }
        throw new InvalidParameter(name, name + " must be a whole number of 0 or more, not \"" + v + "\".");
    }
}
