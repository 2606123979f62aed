package dev.scorecast.server.api;

import dev.scorecast.server.library.Library;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.List;

/** {@code GET /sync/library}: the caller's videos with their analyses and executions (a Scorecast extension; the studio's list). */
public final class LibraryApi {
    private final Library library;

    public LibraryApi(Library library) {
        this.library = library;
    }

    public void register(RoutesConfig routes) {
        routes.get("/sync/library", this::list);
    }

    record Job(String id, String jobId, String status, double progress, String message, String createdAt) {}

    record Video(
            String videoId,
            String fileName,
            double duration,
            int width,
            int height,
            boolean hasAudio,
            String createdAt,
            List<Job> analyses,
            List<Job> executions) {}

    record Answer(List<Video> videos, int limit) {}

    private void list(Context ctx) {
        List<Video> videos = library.of(Authenticator.principal(ctx)).stream()
                .map(v -> new Video(
                        v.videoId(),
                        v.fileName(),
                        v.duration(),
                        v.width(),
                        v.height(),
                        v.hasAudio(),
                        v.createdAt().toString(),
                        jobs(v.analyses()),
                        jobs(v.executions())))
                .toList();
        ctx.json(new Answer(videos, Library.MAX_VIDEOS));
    }

    private static List<Job> jobs(List<Library.Job> jobs) {
        return jobs.stream()
                .map(j -> new Job(
                        j.id(),
                        j.jobId(),
                        j.status(),
                        j.progress(),
                        j.message(),
                        j.createdAt().toString()))
                .toList();
    }
}
