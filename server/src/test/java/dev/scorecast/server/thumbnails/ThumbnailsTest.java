package dev.scorecast.server.thumbnails;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.core.Ticker;
import dev.scorecast.engine.error.Overloaded;
import dev.scorecast.engine.media.MediaLimits;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.config.Quotas;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import dev.scorecast.server.quota.QuotaGuard;
import dev.scorecast.server.storage.LocalBlobStore;
import dev.scorecast.server.upload.Video;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
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
        Process p = new ProcessBuilder(
                        "ffmpeg",
                        "-v",
                        "error",
                        "-y",
                        "-f",
                        "lavfi",
                        "-i",
                        "testsrc2=size=1280x720:rate=25:duration=20",
                        "-c:v",
                        "libx264",
                        "-preset",
                        "ultrafast",
                        "-g",
                        "125",
                        "-pix_fmt",
                        "yuv420p",
                        movie.toString())
                .redirectErrorStream(true)
                .start();
        assertEquals(0, p.waitFor(), new String(p.getInputStream().readAllBytes()));
    }

    private Database database;
    private QuotaGuard quotas;

    @AfterEach
    void closeDatabase() {
        if (database != null) {
            database.close();
        }
    }

    private Thumbnails thumbnails(Path root, int threads, int queued, Duration deadline) throws Exception {
        return thumbnails(root, threads, queued, deadline, Quotas.DEFAULT);
    }

    private Thumbnails thumbnails(Path root, int threads, int queued, Duration deadline, Quotas share)
            throws Exception {
        var blobs = new LocalBlobStore(root.resolve("files"));
        blobs.write(
                "videos/vid_1/source.mp4",
                new ByteArrayInputStream(Files.readAllBytes(movie)),
                Long.MAX_VALUE,
                "file",
                false);
        closeDatabase();
        database = Database.open("jdbc:sqlite:" + root.resolve("scorecast.db"));
        quotas = new QuotaGuard(share, root, database, Clock.systemUTC());
        return new Thumbnails(blobs, MediaLimits.DEFAULT, quotas, threads, queued, deadline, Ticker.SYSTEM);
    }

    private long storedBytes() {
        return database.transaction(c -> quotas.storedBytes(c, new Principal("alice")));
    }

    @Test
    void aStripCountsInItsOwnersShareAndPastItIsAnsweredButNotKept(@TempDir Path root) throws Exception {
        Thumbnails thumbnails = thumbnails(root, 1, 4, Duration.ofSeconds(20));
        Thumbnails.Strip strip = thumbnails.of(video("vid_1"), 8);
        assertTrue(storedBytes() >= strip.jpeg().length, "counted: " + storedBytes());

        Path full = root.resolve("full");
        Files.createDirectories(full);
        Thumbnails tight = thumbnails(
                full, 1, 4, Duration.ofSeconds(20), new Quotas(1000, 32, 4, Quotas.DEFAULT.minFreeBytes(), 32, 50));
        Thumbnails.Strip answered = tight.of(video("vid_1"), 8);
        assertTrue(answered.jpeg().length > 1000, "answered all the same");
        assertEquals(1, storedBytes(), "past the share nothing is counted but the video's own byte");
        tight.of(video("vid_1"), 8);
        assertEquals(2, tight.decodes(), "and not kept: the next call decodes again");
    }

    /** The video {@code id} of alice's, as a row in the database (its charges go with it) and as the record. */
    private Video video(String id) {
        database.transaction(c -> {
            if (Rows.one(c, "SELECT id FROM videos WHERE id = ?", row -> row.getString("id"), id)
                    .isEmpty()) {
                Rows.update(
                        c,
                        "INSERT INTO uploads (id, owner, variant, file_name, state, created_at, updated_at, expires_at)"
                                + " VALUES (?, 'alice', 'a', 'movie.mp4', 'completed', 0, 0, 0)",
                        "upl_" + id);
                Rows.update(
                        c,
                        "INSERT INTO videos (id, owner, upload_id, file_name, stored_as, size, crc32c, container, video_codec,"
                                + " duration, width, height, fps, frames, rotation, has_audio, created_at)"
                                + " VALUES (?, 'alice', ?, 'movie.mp4', 'videos/vid_1/source.mp4', 1, '0', 'mp4', 'h264', 20, 1280, 720, 25, 500,"
                                + " 0, 0, 0)",
                        id,
                        "upl_" + id);
            }
            return null;
        });
        return new Video(
                id,
                "alice",
                "upl_1",
                "movie.mp4",
                "videos/vid_1/source.mp4",
                1,
                "0",
                "mp4",
                "h264",
                20,
                1280,
                720,
                25,
                500,
                0,
                false,
                null,
                null,
                Instant.EPOCH);
    }

    /** {@code call} on a virtual thread of its own once {@code go} opens: requests arriving together. */
    private static <T> CompletableFuture<T> onGo(CountDownLatch go, Supplier<T> call) {
        return CompletableFuture.supplyAsync(
                () -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    return call.get();
                },
                Thread::startVirtualThread);
    }

    @Test
    void identicalRequestsShareOneDecodeAndTheStoreAnswersLater(@TempDir Path root) throws Exception {
        Thumbnails thumbnails = thumbnails(root, 1, 4, Duration.ofSeconds(20));
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<Thumbnails.Strip>> strips = new ArrayList<>();
        Video movieVideo = video("vid_1");
        for (int i = 0; i < 8; i++) {
            strips.add(onGo(go, () -> thumbnails.of(movieVideo, 16)));
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
            assertTrue(
                    time >= expected - 0.001 && time <= expected + 0.041,
                    "picture " + i + " at " + time + ", not " + expected);
        }
    }

    @Test
    void aFullQueueIsRefusedAtOnceWithRetryAfter(@TempDir Path root) throws Exception {
        Thumbnails thumbnails = thumbnails(root, 1, 1, Duration.ofSeconds(20));
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<Thumbnails.Strip>> strips = new ArrayList<>();
        for (int count = 4; count < 12; count++) {
            Video each = video("vid_" + count);
            strips.add(onGo(go, () -> thumbnails.of(each, 32)));
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
