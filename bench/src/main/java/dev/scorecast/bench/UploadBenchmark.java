package dev.scorecast.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Uploads a large real video in fixed-size chunks, several at a time, over loopback, and reports
 * the chunk throughput, the time complete takes (assembly, probe, audio extraction) and the
 * server's peak resident-memory growth over its idle level.
 */
final class UploadBenchmark {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private UploadBenchmark() {}

    static void run(List<String> args) throws Exception {
        Options options = Options.parse(args);
        Path repository = Path.of(System.getProperty("scorecast.repository", "."))
                .toAbsolutePath()
                .normalize();
        Path work = Files.createTempDirectory("scorecast-bench-upload");
        try {
            Path video = makeVideo(work, options.sizeMib());
            long size = Files.size(video);
            System.out.printf(
                    "video: %s, %.1f MiB (raw 1080p frames in Matroska, with audio)%n",
                    video.getFileName(), size / 1048576.0);
            try (ServerProcess server = ServerProcess.start(repository, work.resolve("data"))) {
                warmUp(server);
                Thread.sleep(1000);
                System.gc();
                long idle = server.residentBytes();
                var peak = new AtomicLong(idle);
                var sampling = new AtomicBoolean(true);
                Thread sampler = Thread.ofPlatform().daemon().start(() -> {
                    while (sampling.get()) {
                        try {
                            peak.accumulateAndGet(server.residentBytes(), Math::max);
                            Thread.sleep(20);
                        } catch (Exception e) {
                            return;
                        }
                    }
                });

                Instant start = Instant.now();
                String id = initialize(server, options.variant(), size);
                long chunkBytes = options.chunkMib() * 1048576L;
                int chunks = sendChunks(server, options.variant(), id, video, chunkBytes, options.parallel());
                Duration chunkTime = ServerProcess.since(start);
                long peakDuringChunks = peak.get();
                Instant completeStart = Instant.now();
                JsonNode done = complete(server, options.variant(), id, chunks);
                Duration completeTime = ServerProcess.since(completeStart);
                sampling.set(false);
                sampler.join();

                double mb = size / 1e6;
                double chunkSeconds = chunkTime.toNanos() / 1e9;
                System.out.printf(
                        "variant %s: %d chunks of %d MiB, %d in parallel%n",
                        options.variant(), chunks, options.chunkMib(), options.parallel());
                System.out.printf(
                        "chunks:   %.2f s, %.0f MB/s (%.0f MiB/s)%n",
                        chunkSeconds, mb / chunkSeconds, size / 1048576.0 / chunkSeconds);
                System.out.printf(
                        "complete: %.2f s (assemble %.0f MB, probe, extract %.1f s of audio)%n",
                        completeTime.toNanos() / 1e9,
                        mb,
                        done.path("duration")
                                .asDouble(done.at("/video/duration").asDouble()));
                System.out.printf(
                        "total:    %.2f s, %.0f MB/s end to end%n",
                        (chunkTime.plus(completeTime)).toNanos() / 1e9,
                        mb / (chunkTime.plus(completeTime).toNanos() / 1e9));
                System.out.printf(
                        "server RSS: idle %.0f MB, peak during chunks %.0f MB, peak overall %.0f MB; growth %.0f MB (chunks) / %.0f MB (overall)%n",
                        idle / 1e6,
                        peakDuringChunks / 1e6,
                        peak.get() / 1e6,
                        (peakDuringChunks - idle) / 1e6,
                        (peak.get() - idle) / 1e6);
            }
        } finally {
            deleteTree(work);
        }
    }

    /** Raw 1080p frames compress to nothing, so a file of the requested size is quick to make. */
    private static Path makeVideo(Path dir, long sizeMib) throws IOException, InterruptedException {
        long frameBytes = 1920L * 1080 * 3 / 2;
        long frames = sizeMib * 1048576L / frameBytes + 1;
        Path out = dir.resolve("big.mkv");
        Process ffmpeg = new ProcessBuilder(
                        "ffmpeg",
                        "-hide_banner",
                        "-loglevel",
                        "error",
                        "-y",
                        "-f",
                        "lavfi",
                        "-i",
                        "testsrc2=size=1920x1080:rate=30",
                        "-f",
                        "lavfi",
                        "-i",
                        "sine=frequency=440:sample_rate=48000",
                        "-frames:v",
                        String.valueOf(frames),
                        "-c:v",
                        "rawvideo",
                        "-pix_fmt",
                        "yuv420p",
                        "-c:a",
                        "pcm_s16le",
                        "-shortest",
                        out.toString())
                .inheritIO()
                .start();
        if (ffmpeg.waitFor() != 0) {
            throw new IllegalStateException("ffmpeg could not make the benchmark video");
        }
        return out;
    }

    private static void warmUp(ServerProcess server) throws Exception {
        for (int i = 0; i < 20; i++) {
            String id = initialize(server, "A", 1024);
            post(
                    server,
                    "/sync/upload_chunk",
                    HttpRequest.BodyPublishers.ofByteArray(new byte[1024]),
                    Map.of("X-Upload-Id", id, "X-Chunk-Index", "0", "Content-Type", "application/octet-stream"));
        }
    }

    static String initialize(ServerProcess server, String variant, long size) throws Exception {
        return initialize(server, variant, "big.mkv", "video/x-matroska", size);
    }

    static String initialize(ServerProcess server, String variant, String fileName, String mediaType, long size)
            throws Exception {
        return initialize(server, server.apiKey, variant, fileName, mediaType, size);
    }

    /** As above, as the user whose API key is {@code key}. */
    static String initialize(
            ServerProcess server, String key, String variant, String fileName, String mediaType, long size)
            throws Exception {
        if (variant.equals("A")) {
            return postJson(
                            server,
                            key,
                            "/sync/initialize_video_upload",
                            Map.of("file_name", fileName, "file_size", size, "file_type", mediaType))
                    .get("upload_id")
                    .asText();
        }
        return postJson(server, key, "/sync_upload_init", Map.of("payload", Map.of("filename", fileName)))
                .get("taskid")
                .asText();
    }

    /** Sends all of {@code file} in chunks of {@code chunkBytes}, {@code parallel} at a time; returns the number of chunks. */
    static int sendChunks(ServerProcess server, String variant, String id, Path file, long chunkBytes, int parallel)
            throws Exception {
        return sendChunks(server, server.apiKey, variant, id, file, chunkBytes, parallel);
    }

    /** As above, as the user whose API key is {@code key}. */
    static int sendChunks(
            ServerProcess server, String key, String variant, String id, Path file, long chunkBytes, int parallel)
            throws Exception {
        long size = Files.size(file);
        int chunks = (int) ((size + chunkBytes - 1) / chunkBytes);
        try (var pool = Executors.newFixedThreadPool(parallel)) {
            var futures = new ArrayList<Future<?>>();
            for (int i = 0; i < chunks; i++) {
                int index = i;
                futures.add(pool.submit(() -> {
                    sendChunk(server, key, variant, id, file, index, chunks, chunkBytes, size);
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        }
        return chunks;
    }

    private static void sendChunk(
            ServerProcess server,
            String key,
            String variant,
            String id,
            Path file,
            int index,
            int total,
            long chunkBytes,
            long size)
            throws Exception {
        long offset = index * chunkBytes;
        long length = Math.min(chunkBytes, size - offset);
        if (variant.equals("A")) {
            var body = HttpRequest.BodyPublishers.fromPublisher(
                    HttpRequest.BodyPublishers.ofInputStream(() -> slice(file, offset, length)), length);
            post(
                    server,
                    key,
                    "/sync/upload_chunk",
                    body,
                    Map.of(
                            "X-Upload-Id",
                            id,
                            "X-Chunk-Index",
                            String.valueOf(index),
                            "Content-Type",
                            "application/octet-stream"));
            return;
        }
        String boundary = "bench-" + UUID.randomUUID();
        String payload = JSON.writeValueAsString(Map.of("taskid", id, "index", index, "total", total));
        byte[] head = ("--" + boundary
                        + "\r\nContent-Disposition: form-data; name=\"payload\"\r\nContent-Type: application/json\r\n\r\n"
                        + payload + "\r\n--" + boundary
                        + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"chunk\"\r\n"
                        + "Content-Type: application/octet-stream\r\n\r\n")
                .getBytes();
        byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes();
        var body = HttpRequest.BodyPublishers.concat(
                HttpRequest.BodyPublishers.ofByteArray(head),
                HttpRequest.BodyPublishers.fromPublisher(
                        HttpRequest.BodyPublishers.ofInputStream(() -> slice(file, offset, length)), length),
                HttpRequest.BodyPublishers.ofByteArray(tail));
        post(
                server,
                key,
                "/sync_upload_chunk",
                body,
                Map.of("Content-Type", "multipart/form-data; boundary=" + boundary));
    }

    static JsonNode complete(ServerProcess server, String variant, String id, int chunks) throws Exception {
        return complete(server, server.apiKey, variant, id, chunks);
    }

    /** As above, as the user whose API key is {@code key}. */
    static JsonNode complete(ServerProcess server, String key, String variant, String id, int chunks) throws Exception {
        return variant.equals("A")
                ? postJson(server, key, "/sync/complete_video_upload", Map.of("upload_id", id))
                : postJson(server, key, "/sync_upload_complete", Map.of("taskid", id, "total", chunks));
    }

    private static InputStream slice(Path file, long offset, long length) {
        try {
            FileChannel channel =
                    FileChannel.open(file, StandardOpenOption.READ).position(offset);
            InputStream whole = Channels.newInputStream(channel);
            return new InputStream() {
                long left = length;

                @Override
                public int read() throws IOException {
                    if (left <= 0) {
                        return -1;
                    }
                    left--;
                    return whole.read();
                }

                @Override
                public int read(byte[] buffer, int off, int len) throws IOException {
                    if (left <= 0) {
                        return -1;
                    }
                    int n = whole.read(buffer, off, (int) Math.min(len, left));
                    if (n > 0) {
                        left -= n;
                    }
                    return n;
                }

                @Override
                public void close() throws IOException {
                    whole.close();
                }
            };
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode postJson(ServerProcess server, String path, Object body) throws Exception {
        return postJson(server, server.apiKey, path, body);
    }

    static JsonNode postJson(ServerProcess server, String key, String path, Object body) throws Exception {
        return post(
                server,
                key,
                path,
                HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)),
                Map.of("Content-Type", "application/json"));
    }

    /** A GET of a JSON answer, as the user whose key is {@code key}. */
    static JsonNode getJson(ServerProcess server, String key, String path) throws Exception {
        HttpResponse<String> response = CLIENT.send(
                HttpRequest.newBuilder(URI.create(server.baseUrl + path))
                        .header("Authorization", "Bearer " + key)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new Refused(path, response.statusCode(), response.body());
        }
        return JSON.readTree(response.body());
    }

    /** A multipart POST of JSON parts (variant B's {@code /sync_generate} and {@code /sync_execute}), as the user whose key is {@code key}. */
    static JsonNode postMultipart(ServerProcess server, String key, String path, Map<String, String> jsonParts)
            throws Exception {
        String boundary = "bench-" + UUID.randomUUID();
        var body = new StringBuilder();
        jsonParts.forEach((name, json) -> body.append("--")
                .append(boundary)
                .append("\r\nContent-Disposition: form-data; name=\"")
                .append(name)
                .append("\"\r\nContent-Type: application/json\r\n\r\n")
                .append(json)
                .append("\r\n"));
        body.append("--").append(boundary).append("--\r\n");
        return post(
                server,
                key,
                path,
                HttpRequest.BodyPublishers.ofString(body.toString()),
                Map.of("Content-Type", "multipart/form-data; boundary=" + boundary));
    }

    private static JsonNode post(
            ServerProcess server, String path, HttpRequest.BodyPublisher body, Map<String, String> headers)
            throws Exception {
        return post(server, server.apiKey, path, body, headers);
    }

    private static JsonNode post(
            ServerProcess server, String key, String path, HttpRequest.BodyPublisher body, Map<String, String> headers)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.baseUrl + path))
                .header("Authorization", "Bearer " + key)
                .POST(body);
        headers.forEach(request::header);
        HttpResponse<String> response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new Refused(path, response.statusCode(), response.body());
        }
        return JSON.readTree(response.body());
    }

    /** A call answered with another status than 200; the status is kept so that a caller can tell a 5xx from a refusal. */
    static final class Refused extends IllegalStateException {
        final String path;
        final int status;

        Refused(String path, int status, String body) {
            super(path + " answered " + status + ": " + body);
            this.path = path;
            this.status = status;
        }
    }

    static void deleteTree(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    record Options(long sizeMib, long chunkMib, int parallel, String variant) {
        static Options parse(List<String> args) {
            long size = 1024;
            long chunk = 30;
            int parallel = 4;
            String variant = "A";
            for (int i = 0; i + 1 < args.size(); i += 2) {
                switch (args.get(i)) {
                    case "--size-mib" -> size = Long.parseLong(args.get(i + 1));
                    case "--chunk-mib" -> chunk = Long.parseLong(args.get(i + 1));
                    case "--parallel" -> parallel = Integer.parseInt(args.get(i + 1));
                    case "--variant" -> variant = args.get(i + 1).toUpperCase(Locale.ROOT);
                    default -> throw new IllegalArgumentException("unknown option " + args.get(i));
                }
            }
            return new Options(size, chunk, parallel, variant);
        }
    }
}
