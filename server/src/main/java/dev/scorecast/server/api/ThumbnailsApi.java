package dev.scorecast.server.api;

import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.server.thumbnails.Thumbnails;
import dev.scorecast.server.upload.UploadService;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;

/** {@code GET /sync/thumbnails?video_id=...&count=16}: a JPEG strip of pictures along the video (a Scorecast extension; the studio's timeline). */
public final class ThumbnailsApi {
    static final int DEFAULT_COUNT = 16;

    private final UploadService uploads;
    private final Thumbnails thumbnails;

    public ThumbnailsApi(UploadService uploads, Thumbnails thumbnails) {
        this.uploads = uploads;
        this.thumbnails = thumbnails;
    }

    public void register(RoutesConfig routes) {
        routes.get("/sync/thumbnails", this::strip);
    }

    private void strip(Context ctx) {
        String videoId = ctx.queryParam("video_id");
        if (videoId == null || videoId.isBlank()) {
            throw new InvalidParameter(
                    "video_id", "The video_id query parameter is required: /sync/thumbnails?video_id=vid_...");
        }
        int count = count(ctx.queryParam("count"));
        var video = uploads.video(Authenticator.principal(ctx), videoId.strip());
        Thumbnails.Strip strip = thumbnails.of(video, count);
        ctx.header("X-Thumbnail-Count", Integer.toString(count));
        ctx.header("X-Thumbnail-Width", Integer.toString(strip.width()));
        ctx.header("X-Thumbnail-Height", Integer.toString(strip.height()));
        ctx.header("X-Thumbnail-Times", strip.timesHeader());
        ctx.header("Cache-Control", "private, max-age=86400");
        ctx.contentType("image/jpeg").result(strip.jpeg());
    }

    private static int count(String text) {
        if (text == null || text.isBlank()) {
            return DEFAULT_COUNT;
        }
        try {
            int count = Integer.parseInt(text.strip());
            if (count >= Thumbnails.MIN_COUNT && count <= Thumbnails.MAX_COUNT) {
                return count;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new InvalidParameter(
                "count",
                "count must be a whole number from " + Thumbnails.MIN_COUNT + " to " + Thumbnails.MAX_COUNT
                        + " (pictures in the strip), not \"" + text + "\".");
    }
}
