package dev.scorecast.server.upload;

import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.NotFound;
import dev.scorecast.engine.error.Overloaded;
import dev.scorecast.engine.error.TooLarge;
import dev.scorecast.engine.error.WrongState;
import dev.scorecast.engine.io.Directories;
import dev.scorecast.engine.media.AudioExtractor;
import dev.scorecast.engine.media.MediaLimits;
import dev.scorecast.engine.media.VideoInfo;
import dev.scorecast.engine.media.VideoProbe;
import dev.scorecast.server.auth.Ids;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.config.ServerConfig.UploadLimits;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.quota.QuotaGuard;
import dev.scorecast.server.quota.Stored;
import dev.scorecast.server.storage.BlobStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Enumeration;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chunked uploads for both sync variants: chunks in any order and in parallel, re-sent indices
 * replacing earlier ones, then one complete call that assembles, probes and extracts the audio.
 * State lives in the database and the blob store, so a restart between two calls loses nothing.
 */
public final class UploadService {
    private static final Logger LOG = LoggerFactory.getLogger(UploadService.class);

    private final Database database;
    private final BlobStore blobs;
    private final UploadLimits limits;
    private final Clock clock;
    private final UploadRepository repository;
    private final MediaLimits mediaLimits;
    /**
     * Assembly, probing and extraction run here, on platform threads: a long native FFmpeg call
     * would otherwise pin the carrier of the request's virtual thread for seconds.
     */
    private final ExecutorService mediaWork;

    private final QuotaGuard quotas;
    private final String nodeId;
    private volatile UploadEvents events = UploadEvents.NONE;
    /** An assembly older than this was left by a node that died and never came back: any node puts it back. */
    static final Duration ABANDONED_ASSEMBLY = Duration.ofMinutes(30);
    /** Completions waiting for a media thread before complete answers 503. */
    static final int MEDIA_QUEUE = 8;

    public UploadService(Database database, BlobStore blobs, UploadLimits limits, QuotaGuard quotas, Clock clock) {
        this(database, blobs, limits, quotas, clock, "local");
    }

    /** {@code nodeId} marks the uploads this node assembles, so that its recovery touches only those. */
    public UploadService(
            Database database, BlobStore blobs, UploadLimits limits, QuotaGuard quotas, Clock clock, String nodeId) {
        this.nodeId = nodeId;
        this.database = database;
        this.quotas = quotas;
        this.blobs = blobs;
        this.limits = limits;
        this.clock = clock;
        this.repository = new UploadRepository(database.forUpdate(), clock);
        this.mediaLimits = limits.media();
        int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
        // A short queue: past it, complete answers 503 at once instead of holding requests open for minutes.
        this.mediaWork = new ThreadPoolExecutor(
                threads,
                threads,
                0,
                TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(MEDIA_QUEUE),
                Thread.ofPlatform().name("media-", 0).daemon().factory(),
                new ThreadPoolExecutor.AbortPolicy());
    }

    /** {@code listener} hears of every completed upload from now on, inside the transaction that records it. */
    public void listen(UploadEvents listener) {
        this.events = listener;
    }

    /** Stops the media threads; uploads being completed finish first. */
    public void close() {
        mediaWork.close();
    }

    /** A new upload; variant A declares the size and media type, variant B only a file name. */
    public Upload initialize(Principal owner, Variant variant, String fileName, Long fileSize, String mediaType) {
        if (fileSize != null && fileSize > limits.maxFileBytes()) {
            throw new TooLarge(
                    "file_size",
                    "The file is " + fileSize + " bytes; the largest accepted is " + limits.maxFileBytes()
                            + " bytes. Shorten or compress the video and upload it again.");
        }
        quotas.requireFreeDisk();
        Instant now = clock.instant();
        var upload = new Upload(
                Ids.next(variant.idPrefix()),
                owner.user(),
                variant,
                fileName,
                fileSize,
                mediaType,
                null,
                UploadState.ACTIVE,
                null,
                now,
                now.plus(limits.expiresAfter()));
        database.transaction(c -> {
            quotas.lockUser(c, owner);
            quotas.requireUploadSlot(c, owner);
            if (fileSize != null) {
                quotas.requireRoomFor(c, owner, fileSize, "file_size");
            }
            repository.insert(c, upload);
            return null;
        });
        return upload;
    }

    /**
     * Stores one chunk. The bytes go to a blob of their own before the database learns of them,
     * so a failed or refused chunk leaves nothing behind and a re-sent index swaps atomically.
     */
    public ChunkReceipt putChunk(Principal owner, Variant variant, String uploadId, IncomingChunk incoming) {
        Upload upload = find(owner, variant, uploadId);
        requireActive(upload);
        checkIndex(variant, incoming);
        if (incoming.declaredLength() != null && incoming.declaredLength() > limits.maxChunkBytes()) {
            throw chunkTooLarge(variant);
        }
        // Before a byte is read: the exact size is checked again with the chunk's row.
        quotas.requireFreeDisk();
        database.query(c -> {
            quotas.requireRoomFor(
                    c,
                    owner,
                    incoming.declaredLength() != null ? incoming.declaredLength() : 1,
                    variant.contentField());
            return null;
        });
        String chunkId = Ids.next("chk");
        String key = "uploads/" + upload.id() + "/" + incoming.index() + "-" + chunkId;
        BlobStore.StoredBlob stored;
        try {
            stored = blobs.write(
                    key,
                    incoming.body(),
                    limits.maxChunkBytes(),
                    variant.contentField(),
                    incoming.expectedSha256() != null);
        } catch (TooLarge e) {
            throw chunkTooLarge(variant);
        } catch (UncheckedIOException e) {
            // The sweep may have removed this expired upload, and its directory with the half-written file, while the
            // bytes arrived: then the upload is gone and the client is told so, rather than of a failure of the server.
            if (removedMeanwhile(owner, variant, uploadId)) {
                throw notFound(variant, uploadId);
            }
            throw e;
        }
        try {
            if (stored.size() == 0) {
                throw new InvalidParameter(
                        variant.contentField(),
                        "The chunk is empty; send the chunk's bytes as the " + variant.contentField() + ".");
            }
            verify(variant.crc32cField(), "CRC32C", incoming.expectedCrc32c(), stored.crc32c());
            verify(variant.sha256Field(), "SHA-256", incoming.expectedSha256(), stored.sha256());
            Chunk chunk = new Chunk(
                    incoming.index(),
                    chunkId,
                    stored.size(),
                    stored.crc32c(),
                    stored.sha256(),
                    incoming.total(),
                    key,
                    clock.instant());
            String replaced = database.transaction(c -> record(c, owner, variant, uploadId, chunk));
            if (replaced != null) {
                blobs.delete(replaced);
            }
            return new ChunkReceipt(upload.id(), chunk.index(), chunkId, chunk.size(), chunk.crc32c(), chunk.sha256());
        } catch (RuntimeException e) {
            blobs.delete(key);
            if (e instanceof NotFound) {
                removedMeanwhile(owner, variant, uploadId);
            }
            throw e;
        }
    }

    /**
     * Whether the upload's row is gone, swept as expired while one of its chunks arrived; then the
     * directory that chunk's write may have made again goes too, so nothing of the upload is left.
     */
    private boolean removedMeanwhile(Principal owner, Variant variant, String uploadId) {
        if (database.query(c -> repository.find(c, owner, variant, uploadId)).isPresent()) {
            return false;
        }
        try {
            blobs.deleteTree("uploads/" + uploadId);
        } catch (UncheckedIOException e) {
            // Another late chunk is writing there; it is refused and cleans up the same way.
            LOG.warn("could not remove the files of swept upload {} yet: {}", uploadId, e.getMessage());
        }
        return true;
    }

    private static void verify(String field, String algorithm, String expected, String actual) {
        if (expected != null && !expected.equalsIgnoreCase(actual)) {
            throw new InvalidParameter(
                    field,
                    "The chunk's " + algorithm + " is " + actual + " but " + field + " says "
                            + expected.toLowerCase(Locale.ROOT) + "; the chunk was damaged on the way. Send it again.");
        }
    }

    private String record(Connection c, Principal owner, Variant variant, String uploadId, Chunk chunk)
            throws SQLException {
        Upload current = repository.lock(c, owner, variant, uploadId).orElseThrow(() -> notFound(variant, uploadId));
        requireActive(current);
        if (chunk.total() != null) {
            if (current.totalChunks() == null) {
                repository.setTotal(c, uploadId, chunk.total());
            } else if (!current.totalChunks().equals(chunk.total())) {
                throw new WrongState(
                        "total",
                        "Earlier chunks of this task said total = " + current.totalChunks() + " but this one says "
                                + chunk.total() + "; send the same total with every chunk.");
            }
        }
        long others = repository.bytesExcept(c, uploadId, chunk.index());
        long ceiling = current.fileSize() != null ? current.fileSize() : limits.maxFileBytes();
        if (others + chunk.size() > ceiling) {
            throw current.fileSize() != null
                    ? new TooLarge(
                            "file_size",
                            "The chunks received add up to " + (others + chunk.size())
                                    + " bytes, more than the declared file_size of " + current.fileSize()
                                    + "; check the chunk boundaries or start a new upload with the right file_size.")
                    : new TooLarge(
                            variant.contentField(),
                            "The chunks received add up to more than the largest accepted file ("
                                    + limits.maxFileBytes() + " bytes); shorten or compress the video.");
        }
        var previous = repository.chunk(c, uploadId, chunk.index());
        // After the upload's row: no transaction takes the two the other way round, so they cannot deadlock.
        quotas.lockUser(c, owner);
        quotas.requireRoomFor(c, owner, chunk.size() - previous.map(Chunk::size).orElse(0L), variant.contentField());
        String replaced = previous.map(Chunk::storedAs).orElse(null);
        repository.putChunk(c, uploadId, chunk);
        Instant now = clock.instant();
        repository.touch(c, uploadId, now, now.plus(limits.expiresAfter()));
        return replaced;
    }

    /** What has arrived so far, for a client resuming an interrupted upload. */
    public UploadProgress progress(Principal owner, Variant variant, String uploadId) {
        return database.query(c -> {
            Upload upload = repository.find(c, owner, variant, uploadId).orElseThrow(() -> notFound(variant, uploadId));
            List<Chunk> chunks = repository.chunks(c, uploadId);
            return new UploadProgress(
                    upload, chunks, chunks.stream().mapToLong(Chunk::size).sum());
        });
    }

    /**
     * Assembles the chunks into the video, probes it and extracts its audio. Calling it again on a
     * complete upload answers the same result, so a client whose connection dropped can retry.
     */
    public CompletedUpload complete(Principal owner, Variant variant, String uploadId, Integer total) {
        Claim claim = database.transaction(c -> claim(c, owner, variant, uploadId, total));
        if (claim.done() != null) {
            return claim.done();
        }
        Upload upload = claim.upload();
        String videoId = upload.videoId();
        try {
            // The video takes the chunks' place; its extracted audio is new, and counted once the video's row exists.
            quotas.requireFreeDisk(
                    claim.chunks().stream().mapToLong(Chunk::size).sum());
            Video video = onMediaThread(() -> assemble(upload, videoId, claim.chunks()));
            long audioBytes = video.audioStoredAs() == null ? 0 : blobs.size(video.audioStoredAs());
            database.transaction(c -> {
                quotas.lockUser(c, owner);
                repository.insertVideo(c, video);
                // The chunks, counted until now, stop counting here and the video starts: only the audio is new (507
                // past the quota).
                repository.setState(c, upload.id(), UploadState.COMPLETE, videoId);
                if (video.audioStoredAs() != null) {
                    quotas.charge(
                            c,
                            owner,
                            Stored.forVideo(videoId, video.audioStoredAs(), audioBytes),
                            variant.contentField());
                }
                events.completed(c, withState(upload, UploadState.COMPLETE), video);
                return null;
            });
            claim.chunks().forEach(chunk -> blobs.delete(chunk.storedAs()));
            LOG.info(
                    "upload {} complete: video {} ({} bytes, {} s)",
                    upload.id(),
                    videoId,
                    video.size(),
                    video.duration());
            return new CompletedUpload(withState(upload, UploadState.COMPLETE), video);
        } catch (RuntimeException e) {
            blobs.deleteTree("videos/" + videoId);
            database.transaction(c -> {
                repository.setState(c, upload.id(), UploadState.ACTIVE, null);
                return null;
            });
            throw e;
        }
    }

    private Claim claim(Connection c, Principal owner, Variant variant, String uploadId, Integer total)
            throws SQLException {
        Upload upload = repository.lock(c, owner, variant, uploadId).orElseThrow(() -> notFound(variant, uploadId));
        switch (upload.state()) {
            case COMPLETE -> {
                Video video = repository.findVideo(c, owner, upload.videoId()).orElseThrow();
                return new Claim(upload, List.of(), new CompletedUpload(upload, video));
            }
            case ASSEMBLING ->
                throw new WrongState(
                        variant.idField(),
                        "This upload is being completed by another request; wait for it, then call complete again.");
            case ACTIVE -> {}
        }
        List<Chunk> chunks = repository.chunks(c, uploadId);
        int expectedCount = expectedChunkCount(upload, chunks, total);
        List<Integer> missing = missing(chunks, expectedCount);
        if (!missing.isEmpty()) {
            throw new WrongState(
                    "chunks",
                    "Chunks " + summarize(missing) + " have not arrived (" + chunks.size() + " of " + expectedCount
                            + " received); upload them, then call complete again.",
                    Map.of(
                            "missing_indices",
                            missing,
                            "received_chunks",
                            chunks.size(),
                            "expected_chunks",
                            expectedCount));
        }
        long received = chunks.stream().mapToLong(Chunk::size).sum();
        if (upload.fileSize() != null && received != upload.fileSize()) {
            throw new WrongState(
                    "file_size",
                    "The chunks add up to " + received + " bytes but file_size is " + upload.fileSize()
                            + "; upload the remaining bytes as further chunks, then call complete again.",
                    Map.of("received_bytes", received, "expected_bytes", upload.fileSize()));
        }
        String videoId = Ids.next("vid");
        repository.setAssembling(c, uploadId, videoId, nodeId);
        return new Claim(withVideo(upload, videoId), chunks, null);
    }

    private int expectedChunkCount(Upload upload, List<Chunk> chunks, Integer total) {
        if (upload.variant() == Variant.B) {
            if (total == null) {
                throw new InvalidParameter("total", "total is required: send the number of chunks you uploaded.");
            }
            if (upload.totalChunks() != null && !upload.totalChunks().equals(total)) {
                throw new WrongState(
                        "total",
                        "The chunks were sent with total = " + upload.totalChunks() + " but complete says " + total
                                + "; send the same total.");
            }
            return total;
        }
        if (chunks.isEmpty()) {
            throw new WrongState(
                    "chunks",
                    "No chunks have arrived yet; upload the video with /sync/upload_chunk first.",
                    Map.of("missing_indices", List.of(0), "received_chunks", 0));
        }
        return chunks.getLast().index() + 1;
    }

    private Video assemble(Upload upload, String videoId, List<Chunk> chunks) {
        String sourceKey = "videos/" + videoId + "/source";
        BlobStore.StoredBlob source;
        try (InputStream joined = new SequenceInputStream(opening(chunks))) {
            source = blobs.write(sourceKey, joined, limits.maxFileBytes(), "file_size", false);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        VideoInfo info;
        String audioKey = null;
        // FFmpeg needs a file: the store's own in the data directory, a staged copy from an object store.
        try (BlobStore.Staged staged = blobs.stage(sourceKey)) {
            info = VideoProbe.probe(staged.path(), mediaLimits);
            if (info.hasAudio()) {
                String key = "videos/" + videoId + "/audio.wav";
                Path work = blobs.scratchDirectory();
                try {
                    Path wav = work.resolve("audio.wav");
                    if (AudioExtractor.extractWav(staged.path(), wav, mediaLimits)
                            .isPresent()) {
                        blobs.moveIn(key, wav);
                        audioKey = key;
                    }
                } finally {
                    Directories.deleteTree(work);
                }
            }
        }
        return new Video(
                videoId,
                upload.owner(),
                upload.id(),
                upload.fileName(),
                sourceKey,
                source.size(),
                source.crc32c(),
                info.container(),
                info.videoCodec(),
                info.duration(),
                info.width(),
                info.height(),
                info.fps(),
                info.frames(),
                info.rotation(),
                audioKey != null,
                info.audioCodec(),
                audioKey,
                clock.instant());
    }

    private <T> T onMediaThread(Callable<T> work) {
        Future<T> future;
        try {
            future = mediaWork.submit(work);
        } catch (RejectedExecutionException e) {
            throw new Overloaded(
                    "The server is assembling as many uploads as it takes on at once; call complete again in a few seconds "
                            + "(the chunks are kept).",
                    Duration.ofSeconds(5));
        }
        try {
            return future.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while completing an upload", e);
        }
    }

    /**
     * Opens each chunk only when the previous one is used up, so one file handle is open at a time,
     * and checks each against the CRC32C taken when it arrived: a chunk damaged at rest fails the
     * assembly (the client sends it again) instead of becoming part of the video.
     */
    private Enumeration<InputStream> opening(List<Chunk> chunks) {
        Iterator<Chunk> next = chunks.iterator();
        return new Enumeration<>() {
            @Override
            public boolean hasMoreElements() {
                return next.hasNext();
            }

            @Override
            public InputStream nextElement() {
                return new VerifiedChunk(next.next(), blobs);
            }
        };
    }

    public Video video(Principal owner, String videoId) {
        return database.query(c -> repository.findVideo(c, owner, videoId))
                .orElseThrow(() -> new NotFound(
                        "video_id",
                        "No video " + videoId
                                + " exists for this API key; use the video_id from complete_video_upload."));
    }

    /**
     * For a transaction about to add a row naming {@code videoId}: takes the owner's lock, which
     * retention takes too before deleting a video, and answers 404 when the video went meanwhile
     * (otherwise the insert would break its foreign key: a 500).
     */
    public void holdVideo(Connection c, Principal owner, String videoId) throws SQLException {
        quotas.lockUser(c, owner);
        if (repository.findVideo(c, owner, videoId).isEmpty()) {
            throw new NotFound(
                    "video_id",
                    "The video " + videoId + " was deleted, unused for longer than the server keeps videos"
                            + " (SCORECAST_RETENTION_HOURS); upload it again.");
        }
    }

    /** The video of a completed upload; 409 while the upload is still taking chunks. */
    public Video completedVideo(Principal owner, Variant variant, String uploadId) {
        Upload upload = find(owner, variant, uploadId);
        if (upload.state() != UploadState.COMPLETE) {
            throw new WrongState(
                    variant.idField(),
                    "The upload " + uploadId + " is not complete yet; finish it with "
                            + (variant == Variant.A ? "/sync/complete_video_upload" : "/sync_upload_complete")
                            + " first.");
        }
        return video(owner, upload.videoId());
    }

    /**
     * Puts uploads a crash of this node left mid-assembly back to taking chunks (and those any node
     * left longer ago than {@link #ABANDONED_ASSEMBLY}), and removes half-written files. Another
     * live node's assemblies are never touched.
     */
    public void recover() {
        blobs.removeLeftovers();
        long staleBefore = clock.instant().minus(ABANDONED_ASSEMBLY).toEpochMilli();
        for (Upload upload : database.query(c -> repository.interrupted(c, nodeId, staleBefore))) {
            if (upload.videoId() != null) {
                blobs.deleteTree("videos/" + upload.videoId());
            }
            database.transaction(c -> {
                repository.setState(c, upload.id(), UploadState.ACTIVE, null);
                return null;
            });
            LOG.info("upload {} was interrupted while completing; it takes chunks again", upload.id());
        }
    }

    /** Deletes unfinished uploads nobody has touched within the expiry time. */
    public int removeExpired() {
        List<Upload> expired = database.query(c -> repository.expired(c, clock.instant()));
        int removed = 0;
        for (Upload upload : expired) {
            // Read before the transaction: on SQLite it holds the database's write lock, and nothing should wait inside
            // it.
            Instant now = clock.instant();
            // Conditional: a late chunk renews the expiry, and its upload must not lose it to this sweep.
            if (database.transaction(c -> repository.deleteIfExpired(c, upload.id(), now))) {
                removed++;
                try {
                    blobs.deleteTree("uploads/" + upload.id());
                } catch (UncheckedIOException e) {
                    // A late chunk is writing there (its file appeared mid-walk): it finds the upload gone and removes
                    // the rest.
                    LOG.warn("could not remove all files of expired upload {}: {}", upload.id(), e.getMessage());
                }
            }
        }
        return removed;
    }

    private Upload find(Principal owner, Variant variant, String uploadId) {
        return database.query(c -> repository.find(c, owner, variant, uploadId))
                .orElseThrow(() -> notFound(variant, uploadId));
    }

    private void checkIndex(Variant variant, IncomingChunk incoming) {
        if (incoming.index() < 0 || incoming.index() >= limits.maxChunks()) {
            throw new InvalidParameter(
                    variant.indexField(),
                    variant.indexField() + " must be between 0 and " + (limits.maxChunks() - 1)
                            + "; number chunks from 0.");
        }
        if (incoming.total() != null) {
            if (incoming.total() < 1 || incoming.total() > limits.maxChunks()) {
                throw new InvalidParameter("total", "total must be between 1 and " + limits.maxChunks() + ".");
            }
            if (incoming.index() >= incoming.total()) {
                throw new InvalidParameter(
                        variant.indexField(),
                        "index " + incoming.index() + " is not below total " + incoming.total()
                                + "; chunks are numbered 0 to total - 1.");
            }
        }
    }

    private TooLarge chunkTooLarge(Variant variant) {
        return new TooLarge(
                variant.contentField(),
                "A chunk may be at most " + limits.maxChunkBytes() + " bytes; split the file into smaller chunks.");
    }

    private static void requireActive(Upload upload) {
        switch (upload.state()) {
            case ACTIVE -> {}
            case ASSEMBLING ->
                throw new WrongState(
                        upload.variant().idField(),
                        "This upload is being completed and takes no more chunks; wait for complete to answer.");
            case COMPLETE ->
                throw new WrongState(
                        upload.variant().idField(),
                        "This upload is already complete and takes no more chunks; start a new upload to send another video.");
        }
    }

    static NotFound notFound(Variant variant, String id) {
        return new NotFound(
                variant.idField(),
                "No upload " + id + " exists for this API key; use the " + variant.idField()
                        + " returned when the upload was initialized.");
    }

    private static List<Integer> missing(List<Chunk> chunks, int expected) {
        var present = chunks.stream().map(Chunk::index).collect(Collectors.toSet());
        return IntStream.range(0, expected)
                .filter(i -> !present.contains(i))
                .boxed()
                .toList();
    }

    /** "3, 5 and 8" or "3, 5, 8, ... (120 in all)". */
    private static String summarize(List<Integer> indices) {
        List<String> shown = indices.stream().limit(10).map(String::valueOf).toList();
        if (indices.size() > shown.size()) {
            return String.join(", ", shown) + ", ... (" + indices.size() + " in all)";
        }
        if (shown.size() == 1) {
            return shown.getFirst();
        }
        return String.join(", ", shown.subList(0, shown.size() - 1)) + " and " + shown.getLast();
    }

    private static Upload withState(Upload u, UploadState state) {
        return new Upload(
                u.id(),
                u.owner(),
                u.variant(),
                u.fileName(),
                u.fileSize(),
                u.mediaType(),
                u.totalChunks(),
                state,
                u.videoId(),
                u.createdAt(),
                u.expiresAt());
    }

    private static Upload withVideo(Upload u, String videoId) {
        return new Upload(
                u.id(),
                u.owner(),
                u.variant(),
                u.fileName(),
                u.fileSize(),
                u.mediaType(),
                u.totalChunks(),
                UploadState.ASSEMBLING,
                videoId,
                u.createdAt(),
                u.expiresAt());
    }

    private record Claim(Upload upload, List<Chunk> chunks, CompletedUpload done) {}
}
