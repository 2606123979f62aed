package dev.scorecast.server.thumbnails;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.error.Overloaded;
import dev.scorecast.engine.media.MediaLimits;
import dev.scorecast.server.config.Quotas;
import dev.scorecast.server.quota.QuotaGuard;
import dev.scorecast.server.storage.LocalBlobStore;
import dev.scorecast.server.upload.Video;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The strip pool: identical requests share one decode, a full queue answers at once, a decode past its deadline stops. */
class ThumbnailsTest {
    @TempDir
    static Path dir;
    static Path movie;

    /** 20 s at 720p with a keyframe every 5 s: long enough that a strip takes a while. */
    @BeforeAll
    static void makeVideo() throws Exception {
        movie = dir.resolve("movie.mp4");
        Process p = new ProcessBuilder("ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=25:duration=20",
                "-c:v", "libx264", "-preset", "ultrafast", "-g", "125", "-pix_fmt", "yuv420p", movie.toString())
                .redirectErrorStream(true).start();
        assertEquals(0, p.waitFor(), new String(p.getInputStream().readAllBytes()));
    }

    private Thumbnails thumbnails(Path root, int threads, int queued, Duration deadline) throws Exception {
        var blobs = new LocalBlobStore(root.resolve("files"));
        blobs.write("videos/vid_1/source.mp4", new ByteArrayInputStream(Files.readAllBytes(movie)), Long.MAX_VALUE, "file", false);
        return new Thumbnails(blobs, MediaLimits.DEFAULT, new QuotaGuard(Quotas.DEFAULT, root), threads, queued, deadline);
    }

    private static Video video(String id) {
        return new Video(id, "alice", "upl_1", "movie.mp4", "videos/vid_1/source.mp4", 1, "0", "mp4", "h264", 20, 1280, 720, 25, 500,
                0, false, null, null, Instant.EPOCH);
    }

    /** {@code call} on a virtual thread of its own once {@code go} opens: requests arriving together. */
    private static <T> CompletableFuture<T> onGo(CountDownLatch go, java.util.function.Supplier<T> call) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                go.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return call.get();
        }, Thread::startVirtualThread);
    }

    @Test
    void identicalRequestsShareOneDecodeAndTheStoreAnswersLater(@TempDir Path root) throws Exception {
        Thumbnails thumbnails = thumbnails(root, 1, 4, Duration.ofSeconds(20));
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<Thumbnails.Strip>> strips = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            strips.add(onGo(go, () -> thumbnails.of(video("vid_1"), 16)));
        }
        go.countDown();
        byte[] first = strips.getFirst().join().jpeg();
        for (var strip : strips) {
            assertArrayEquals(first, strip.join().jpeg());
        }
        assertEquals(1, thumbnails.decodes(), "eight identical requests, one decode");
        thumbnails.of(video("vid_1"), 16);
        assertEquals(1, thumbnails.decodes(), "kept in the store");
        Thumbnails.Strip strip = thumbnails.of(video("vid_1"), 8);
        assertEquals(2, thumbnails.decodes());
        // Keyframes at 0, 5, 10 and 15 s; each picture decoded on from the keyframe before its time, at most 21
        // pictures of 720p (20 million pixels, 0.84 s), the first at or after its time when that is near enough.
        for (int i = 0; i < 8; i++) {
            double middle = (i + 0.5) * 20 / 8;
            double keyframe = Math.floor(middle / 5) * 5;
            double time = strip.times()[i];
            double expected = Math.min(middle, keyframe + 0.8);
            assertTrue(time >= expected - 0.001 && time <= expected + 0.041, "picture " + i + " at " + time + ", not " + expected);
        }
    }

    @Test
    void aFullQueueIsRefusedAtOnceWithRetryAfter(@TempDir Path root) throws Exception {
        Thumbnails thumbnails = thumbnails(root, 1, 1, Duration.ofSeconds(20));
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<Thumbnails.Strip>> strips = new ArrayList<>();
        for (int count = 4; count < 12; count++) {
            String id = "vid_" + count;
            strips.add(onGo(go, () -> thumbnails.of(video(id), 32)));
        }
        go.countDown();
        int made = 0;
        int refused = 0;
        for (var strip : strips) {
            try {
                strip.join();
                made++;
            } catch (CompletionException e) {
                Overloaded busy = assertInstanceOf(Overloaded.class, e.getCause());
                assertEquals(Thumbnails.RETRY_AFTER, busy.retryAfter());
                refused++;
            }
        }
        assertTrue(made >= 2 && made <= 3, "one decoding, one queued (and one more if the first ended early): " + made);
        assertEquals(8, made + refused);
    }

    @Test
    void aDecodePastItsDeadlineStops(@TempDir Path root) throws Exception {
        Thumbnails thumbnails = thumbnails(root, 1, 4, Duration.ofMillis(1));
        Overloaded late = assertThrows(Overloaded.class, () -> thumbnails.of(video("vid_1"), 32));
        assertTrue(late.getMessage().contains("longer than"), late.getMessage());
    }
}
