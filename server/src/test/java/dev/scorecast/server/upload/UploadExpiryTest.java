package dev.scorecast.server.upload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.error.NotFound;
import dev.scorecast.server.PostgresSchema;
import dev.scorecast.server.VirtualClock;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.config.Quotas;
import dev.scorecast.server.config.ServerConfig;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import dev.scorecast.server.quota.QuotaGuard;
import dev.scorecast.server.storage.LocalBlobStore;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Unfinished uploads nobody touches expire; every chunk renews the deadline. A chunk arriving while
 * its upload is swept (issue 15, races) either keeps the upload or is refused, never left behind.
 */
class UploadExpiryTest {
    @TempDir
    Path data;

    /** A clock the test moves by hand. */
    static class ManualClock extends VirtualClock {
        ManualClock() {
            super(Instant.parse("2026-11-22T08:00:00Z"));
        }

        private volatile Thread gated;
        private int readings;
        private int stopAt;
        private final CountDownLatch stopped = new CountDownLatch(1);
        private final CountDownLatch resumed = new CountDownLatch(1);

        /** Stops {@code thread} at its {@code reading}-th reading of the clock until {@link #resume}: a seam to order two threads. */
        void stop(Thread thread, int reading) {
            stopAt = reading;
            gated = thread;
        }

        void awaitStopped() throws InterruptedException {
            stopped.await();
        }

        void resume() {
            resumed.countDown();
        }

        @Override
        public Instant instant() {
            if (Thread.currentThread() == gated && ++readings == stopAt) {
                stopped.countDown();
                try {
                    resumed.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return super.instant();
        }
    }

    @Test
    void untouchedUploadsExpireAndTheirFilesGo() {
        var config = ServerConfig.from(Map.of("SCORECAST_DATA", data.toString(), "SCORECAST_UPLOAD_TTL_HOURS", "2"));
        var clock = new ManualClock();
        var owner = new Principal("alice");
        try (Database database = Database.open(config.dbUrl())) {
            var uploads = new UploadService(
                    database,
                    new LocalBlobStore(data.resolve("files")),
                    config.uploads(),
                    new QuotaGuard(Quotas.DEFAULT, data, clock),
                    clock);
            Upload stale = uploads.initialize(owner, Variant.B, "a.mp4", null, null);
            Upload fresh = uploads.initialize(owner, Variant.B, "b.mp4", null, null);
            byte[] bytes = {1, 2, 3, 4};
            uploads.putChunk(
                    owner,
                    Variant.B,
                    stale.id(),
                    new IncomingChunk(0, 2, null, null, 4L, new ByteArrayInputStream(bytes)));
            Path staleDir = data.resolve("files/uploads/" + stale.id());
            assertTrue(Files.isDirectory(staleDir));

            clock.advance(Duration.ofMinutes(90));
            uploads.putChunk(
                    owner,
                    Variant.B,
                    fresh.id(),
                    new IncomingChunk(0, 2, null, null, 4L, new ByteArrayInputStream(bytes)));
            assertEquals(0, uploads.removeExpired(), "nothing is older than two hours yet");

            clock.advance(Duration.ofMinutes(40));
            assertEquals(1, uploads.removeExpired(), "the stale upload is 130 minutes old, the fresh one 40");
            assertThrows(NotFound.class, () -> uploads.progress(owner, Variant.B, stale.id()));
            assertFalse(Files.exists(staleDir));
            assertEquals(
                    1, uploads.progress(owner, Variant.B, fresh.id()).chunks().size());
            uploads.close();
        }
    }

    /**
     * The sweep lists the upload as expired, a chunk arrives and renews it, then the sweep deletes:
     * the delete is conditional on the expiry it re-reads, so the upload and both chunks stay.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"sqlite", "postgresql"})
    void aChunkArrivingBetweenTheSweepsListAndItsDeleteKeepsItsUpload(String db) throws Exception {
        onDatabase(db, (database, uploads, clock) -> {
            var owner = new Principal("alice");
            Upload upload = uploads.initialize(owner, Variant.B, "a.mp4", null, null);
            uploads.putChunk(
                    owner, Variant.B, upload.id(), chunk(0, new ByteArrayInputStream(new byte[] {1, 2, 3, 4})));
            clock.advance(Duration.ofHours(3));

            // The sweep's first reading of the clock lists the expired uploads; it stops at its second, before
            // deleting.
            var sweep = new FutureTask<>(uploads::removeExpired);
            Thread sweeper = Thread.ofPlatform().name("sweeper").unstarted(sweep);
            clock.stop(sweeper, 2);
            sweeper.start();
            clock.awaitStopped();
            uploads.putChunk(
                    owner, Variant.B, upload.id(), chunk(1, new ByteArrayInputStream(new byte[] {5, 6, 7, 8})));
            clock.resume();

            assertEquals(0, sweep.get(), "the upload was renewed after it was listed");
            assertEquals(
                    2, uploads.progress(owner, Variant.B, upload.id()).chunks().size());
            try (var files = Files.list(data.resolve("files/uploads/" + upload.id()))) {
                assertEquals(2, files.count(), "both chunks' files");
            }
        });
    }

    /**
     * A chunk's bytes are still arriving when the sweep deletes its upload, rows and files: the
     * chunk is refused as not found (not a 500), and no row or file of it is left behind.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"sqlite", "postgresql"})
    void aChunkWhoseUploadIsSweptWhileItArrivesIsRefusedAndLeavesNothing(String db) throws Exception {
        onDatabase(db, (database, uploads, clock) -> {
            var owner = new Principal("alice");
            Upload upload = uploads.initialize(owner, Variant.B, "a.mp4", null, null);
            uploads.putChunk(
                    owner, Variant.B, upload.id(), chunk(0, new ByteArrayInputStream(new byte[] {1, 2, 3, 4})));
            clock.advance(Duration.ofHours(3));

            var arriving = new CountDownLatch(1);
            var swept = new CountDownLatch(1);
            // Four bytes, then the body waits (its file open in the upload's directory) until the sweep is done.
            InputStream body = new InputStream() {
                private int sent;

                @Override
                public int read() {
                    throw new UnsupportedOperationException();
                }

                @Override
                public int read(byte[] buffer, int offset, int length) {
                    if (sent == 0) {
                        sent = 4;
                        Arrays.fill(buffer, offset, offset + 4, (byte) 9);
                        return 4;
                    }
                    arriving.countDown();
                    try {
                        swept.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return -1;
                }
            };
            var late = new FutureTask<>(() -> uploads.putChunk(owner, Variant.B, upload.id(), chunk(1, body)));
            Thread.ofPlatform().name("late-chunk").start(late);
            arriving.await();
            assertEquals(1, uploads.removeExpired());
            swept.countDown();

            ExecutionException refused = assertThrows(ExecutionException.class, late::get);
            assertInstanceOf(NotFound.class, refused.getCause(), () -> "refused as " + refused.getCause());
            assertEquals(
                    0,
                    database.query(c -> Rows.one(
                                    c,
                                    "SELECT COUNT(*) AS n FROM upload_chunks WHERE upload_id = ?",
                                    row -> row.getInt("n"),
                                    upload.id()))
                            .orElse(0));
            assertFalse(Files.exists(data.resolve("files/uploads/" + upload.id())), "no file of the upload is left");
        });
    }

    private static IncomingChunk chunk(int index, InputStream body) {
        return new IncomingChunk(index, 2, null, null, null, body);
    }

    private interface WithUploads {
        void run(Database database, UploadService uploads, ManualClock clock) throws Exception;
    }

    /** Runs {@code test} on an upload service with a two-hour expiry, over SQLite or a fresh PostgreSQL schema. */
    private void onDatabase(String db, WithUploads test) throws Exception {
        PostgresSchema.WithDatabase withUrl = url -> {
            var env = new HashMap<>(Map.of("SCORECAST_DATA", data.toString(), "SCORECAST_UPLOAD_TTL_HOURS", "2"));
            if (url != null) {
                env.put("SCORECAST_DB_URL", url);
            }
            var config = ServerConfig.from(env);
            var clock = new ManualClock();
            try (Database database = Database.open(config.dbUrl())) {
                var uploads = new UploadService(
                        database,
                        new LocalBlobStore(data.resolve("files")),
                        config.uploads(),
                        new QuotaGuard(Quotas.DEFAULT, data, clock),
                        clock);
                try {
                    test.run(database, uploads, clock);
                } finally {
                    uploads.close();
                }
            }
        };
        if (db.equals("sqlite")) {
            withUrl.run(null);
        } else {
            PostgresSchema.run(withUrl);
        }
    }
}
