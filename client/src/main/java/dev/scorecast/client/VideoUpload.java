package dev.scorecast.client;

import dev.scorecast.client.model.SyncAComplete200Response;
import dev.scorecast.client.model.SyncACompleteRequest;
import dev.scorecast.client.model.SyncAInitializeRequest;
import dev.scorecast.client.model.SyncAUploadStatus200ResponseChunksInner;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * A video upload in one call, the way the API wants it and generators cannot write: initialize with
 * the file's size and type; send the file in chunks of at most {@link #MAX_CHUNK} (or the server's
 * limit), {@code parallel} at once, each with its SHA-256 (a damaged chunk is refused and sent
 * again), each retried with a growing pause when the connection or the server fails; complete. A
 * resumed upload asks upload_status first and sends only the chunks missing or different.
 */
final class VideoUpload {
    static final int DEFAULT_PARALLEL = 4;
    static final long MAX_CHUNK = 8L << 20;
    private static final int ATTEMPTS = 4;

    private final Scorecast scorecast;
    private final int parallel;

    VideoUpload(Scorecast scorecast, int parallel) {
        this.scorecast = scorecast;
        this.parallel = parallel;
    }

    SyncAComplete200Response upload(Path file, String resumeId) throws IOException, ApiException {
        long size = Files.size(file);
        long chunk;
        String uploadId;
        Map<Integer, String> present = new HashMap<>();
        if (resumeId == null) {
            var started = scorecast
                    .sync()
                    .syncAInitialize(new SyncAInitializeRequest()
                            .fileName(file.getFileName().toString())
                            .fileSize(size)
                            .fileType(mediaType(file)));
            uploadId = started.getUploadId();
            chunk = Math.min(MAX_CHUNK, started.getChunkSize());
        } else {
            uploadId = resumeId;
            var status = scorecast.sync().syncAUploadStatus(resumeId);
            long first = MAX_CHUNK;
            for (SyncAUploadStatus200ResponseChunksInner c : status.getChunks()) {
                present.put(c.getIndex(), c.getSha256());
                if (c.getIndex() == 0) {
                    first = c.getSize();
                }
            }
            // The same chunking as the upload being resumed: its first chunk's size (every chunk but the last has it).
            chunk = first;
        }
        int count = (int) Math.max(1, (size + chunk - 1) / chunk);
        var slots = new Semaphore(parallel);
        List<Future<?>> sent = new ArrayList<>();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor();
                var in = new RandomAccessFile(file.toFile(), "r")) {
            for (int index = 0; index < count; index++) {
                byte[] bytes = read(in, index * chunk, (int) Math.min(chunk, size - index * chunk));
                String sha256 = sha256(bytes);
                if (sha256.equals(present.get(index))) {
                    continue; // arrived whole before
                }
                int i = index;
                slots.acquireUninterruptibly();
                sent.add(threads.submit(() -> {
                    try {
                        send(uploadId, i, bytes, sha256);
                        return null;
                    } finally {
                        slots.release();
                    }
                }));
            }
            for (Future<?> f : sent) {
                f.get();
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ApiException api) {
                throw api;
            }
            throw new IOException(
                    "a chunk of " + file + " could not be sent (upload " + uploadId + "; resume it with resumeUpload)",
                    e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while uploading " + file + " (upload " + uploadId + ")", e);
        }
        return scorecast.sync().syncAComplete(new SyncACompleteRequest().uploadId(uploadId));
    }

    /** One chunk, with its checksum, retried with a growing pause; a 4xx other than 408 and 429 is the caller's to fix. */
    private void send(String uploadId, int index, byte[] bytes, String sha256)
            throws ApiException, IOException, InterruptedException {
        ApiClient client = scorecast.apiClient();
        for (int attempt = 1; ; attempt++) {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(client.getBaseUri() + "/sync/upload_chunk"))
                    .header("Content-Type", "application/octet-stream")
                    .header("X-Upload-Id", uploadId)
                    .header("X-Chunk-Index", Integer.toString(index))
                    .header("X-Chunk-Sha256", sha256)
                    .timeout(Duration.ofMinutes(5))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(bytes));
            if (client.getRequestInterceptor() != null) {
                client.getRequestInterceptor().accept(request);
            }
            int status;
            String body;
            try {
                HttpResponse<String> response =
                        client.getHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
                status = response.statusCode();
                body = response.body();
            } catch (IOException e) {
                if (attempt >= ATTEMPTS) {
                    throw e;
                }
                Thread.sleep(250L << attempt);
                continue;
            }
            if (status / 100 == 2) {
                return;
            }
            boolean retry = status >= 500 || status == 408 || status == 429;
            if (!retry || attempt >= ATTEMPTS) {
                throw new ApiException(status, "chunk " + index + " of upload " + uploadId + " was refused: " + body);
            }
            Thread.sleep(250L << attempt);
        }
    }

    private static byte[] read(RandomAccessFile in, long offset, int length) throws IOException {
        byte[] bytes = new byte[length];
        synchronized (in) {
            in.seek(offset);
            in.readFully(bytes);
        }
        return bytes;
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String mediaType(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".mov")) {
            return "video/quicktime";
        }
        if (name.endsWith(".webm")) {
            return "video/webm";
        }
        if (name.endsWith(".mkv")) {
            return "video/x-matroska";
        }
        return "video/mp4";
    }
}
