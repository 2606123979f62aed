package dev.scorecast.server.thumbnails;

import dev.scorecast.engine.core.Ticker;
import dev.scorecast.engine.error.InsufficientStorage;
import dev.scorecast.engine.error.Overloaded;
import dev.scorecast.engine.media.KeyframeStills;
import dev.scorecast.engine.media.MediaLimits;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.quota.QuotaGuard;
import dev.scorecast.server.quota.Stored;
import dev.scorecast.server.storage.BlobStore;
import dev.scorecast.server.upload.Video;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * Thumbnails of a video along its length, as one JPEG strip of {@code count} pictures side by side,
 * each the keyframe at or before the middle of one of {@code count} equal stretches. Made once per
 * (video, count) and then kept in the blob store.
 *
 * <p>Why a pool: decoding is native work that pins the thread it runs on. Requests run on virtual
 * threads that share a few carriers with every other request and live stream; decoding there
 * stalled the node (issue 28: 24 strips of one 120 s video made another user's status call wait
 * 20 s). Strips are made here on a few platform threads behind a short queue: a full queue answers
 * 503 with Retry-After at once, identical requests wait for the one decode in flight, and a decode
 * past its deadline is abandoned. Each picture is one keyframe found by a seek ({@link KeyframeStills}),
 * so a strip costs {@code count} pictures whatever the video's length.
 */
public final class Thumbnails {
    public static final int MIN_COUNT = 4;
    public static final int MAX_COUNT = 32;
    /** The longer side of each picture, in pixels. */
    public static final int LONG_SIDE = 128;
    /** A strip takes well under a second; this bounds a pathological file (no index, thousands of keyframes). */
    static final Duration DECODE_DEADLINE = Duration.ofSeconds(20);

    static final Duration RETRY_AFTER = Duration.ofSeconds(5);

    private final BlobStore blobs;
    private final MediaLimits limits;
    private final QuotaGuard quotas;
    private final ThreadPoolExecutor decoders;
    private final Duration deadline;
    /** Times each strip's decode deadline, from when it was asked for. */
    private final Ticker ticker;
    /** The one decode in flight per (video, count); identical requests wait for it instead of starting their own. */
    private final ConcurrentHashMap<String, CompletableFuture<Strip>> inFlight = new ConcurrentHashMap<>();

    private final AtomicLong decodes = new AtomicLong();

    public Thumbnails(BlobStore blobs, MediaLimits limits, QuotaGuard quotas, Ticker ticker) {
        this(
                blobs,
                limits,
                quotas,
                Math.max(1, Runtime.getRuntime().availableProcessors() / 2),
                16,
                DECODE_DEADLINE,
                ticker);
    }

    Thumbnails(
            BlobStore blobs,
            MediaLimits limits,
            QuotaGuard quotas,
            int threads,
            int queued,
            Duration deadline,
            Ticker ticker) {
        this.ticker = ticker;
        this.blobs = blobs;
        this.limits = limits;
        this.quotas = quotas;
        this.deadline = deadline;
        this.decoders = new ThreadPoolExecutor(
                threads,
                threads,
                30,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(queued),
                Thread.ofPlatform().name("thumbnails-", 0).daemon().factory(),
                new ThreadPoolExecutor.AbortPolicy());
        decoders.allowCoreThreadTimeOut(true);
    }

    /** The strip, its pictures' size and the time each shows. */
    public record Strip(byte[] jpeg, int width, int height, double[] times) {
        public String timesHeader() {
            return Arrays.stream(times)
                    .mapToObj(t -> String.format(Locale.ROOT, "%.3f", t))
                    .collect(Collectors.joining(","));
        }
    }

    /**
     * The strip of {@code count} pictures of {@code video}, from the store or made now.
     *
     * @throws Overloaded when the decoders are all busy and their queue is full, or the decode passed its deadline
     */
    public Strip of(Video video, int count) {
        String key = video.id() + "/" + count;
        Strip kept = stored(video, count);
        if (kept != null) {
            return kept;
        }
        CompletableFuture<Strip> mine = new CompletableFuture<>();
        CompletableFuture<Strip> running = inFlight.putIfAbsent(key, mine);
        if (running == null) {
            running = mine;
            try {
                long due = ticker.nanos() + deadline.toNanos();
                decoders.execute(() -> make(video, count, key, mine, due));
            } catch (RejectedExecutionException e) {
                inFlight.remove(key, mine);
                mine.completeExceptionally(busy());
            }
        }
        return await(running);
    }

    /** Makes the strip by {@code due} (on the ticker), counted from when it was asked for: a wait in the queue counts. */
    private void make(Video video, int count, String key, CompletableFuture<Strip> result, long due) {
        decodes.incrementAndGet();
        Strip strip = null;
        Throwable failure = null;
        try {
            Duration left = Duration.ofNanos(due - ticker.nanos());
            if (left.isNegative() || left.isZero()) {
                throw new KeyframeStills.DeadlinePassed();
            }
            strip = StripMaker.make(blobs, video, count, limits, left, ticker);
            store(video, count, strip);
        } catch (KeyframeStills.DeadlinePassed e) {
            failure = new Overloaded(
                    "Making the thumbnails took longer than " + deadline.toSeconds()
                            + " s and was stopped; try again later.",
                    Duration.ofSeconds(30));
        } catch (Throwable t) {
            failure = t;
        }
        // Out of the in-flight map before the answer: a caller woken by it that asks again at once must not
        // be merged into this finished run (ThumbnailsTest saw one decode where a strip not kept needs two).
        inFlight.remove(key, result);
        if (failure == null) {
            result.complete(strip);
        } else {
            result.completeExceptionally(failure);
        }
    }

    /** Strips decoded since the start: what the cache and the merging of identical requests did not spare. */
    public long decodes() {
        return decodes.get();
    }

    private Strip await(CompletableFuture<Strip> strip) {
        try {
            // The decode ends by its deadline, counted from when it was asked for; the margin covers the ending.
            return strip.get(deadline.plusSeconds(2).toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw busy();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while waiting for thumbnails");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    private static Overloaded busy() {
        return new Overloaded(
                "The server is making as many thumbnail strips as it takes on at once; try again in a few seconds.",
                RETRY_AFTER);
    }

    private Strip stored(Video video, int count) {
        String key = jpegKey(video, count);
        String timesKey = timesKey(video, count);
        if (!blobs.exists(key) || !blobs.exists(timesKey)) {
            return null;
        }
        try (InputStream jpeg = blobs.open(key);
                InputStream times = blobs.open(timesKey)) {
            String[] meta = new String(times.readAllBytes(), StandardCharsets.UTF_8).split(";");
            return new Strip(
                    jpeg.readAllBytes(),
                    Integer.parseInt(meta[0]),
                    Integer.parseInt(meta[1]),
                    Arrays.stream(meta[2].split(","))
                            .mapToDouble(Double::parseDouble)
                            .toArray());
        } catch (IOException | RuntimeException e) {
            return null; // a damaged entry is made again
        }
    }

    /**
     * Kept beside the video (removed with it) and counted in its owner's share. Past the share, or
     * when the disk is nearly full, the strip is answered but not kept: the next call makes it again.
     */
    private void store(Video video, int count, Strip strip) {
        byte[] times =
                (strip.width() + ";" + strip.height() + ";" + strip.timesHeader()).getBytes(StandardCharsets.UTF_8);
        Principal owner = new Principal(video.owner());
        try {
            quotas.requireFreeDisk();
            quotas.charge(owner, Stored.forVideo(video.id(), timesKey(video, count), times.length), "count");
            quotas.charge(owner, Stored.forVideo(video.id(), jpegKey(video, count), strip.jpeg().length), "count");
        } catch (InsufficientStorage e) {
            quotas.release(timesKey(video, count));
            return;
        }
        blobs.write(timesKey(video, count), new ByteArrayInputStream(times), 1 << 16, "thumbnails", false);
        blobs.write(jpegKey(video, count), new ByteArrayInputStream(strip.jpeg()), Long.MAX_VALUE, "thumbnails", false);
    }

    private static String jpegKey(Video video, int count) {
        return "videos/" + video.id() + "/thumbnails-" + count + ".jpg";
    }

    private static String timesKey(Video video, int count) {
        return "videos/" + video.id() + "/thumbnails-" + count + ".txt";
    }
}
