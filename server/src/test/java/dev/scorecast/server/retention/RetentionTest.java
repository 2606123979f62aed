package dev.scorecast.server.retention;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import dev.scorecast.server.quota.Stored;
import dev.scorecast.server.storage.LocalBlobStore;
import dev.scorecast.server.upload.UploadService;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Retention on virtual time, on SQLite and PostgreSQL: ended executions and unused videos older
 * than the retention go, rows and files together; running work and recently used videos stay.
 */
class RetentionTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Duration KEEP = Duration.ofDays(30);

    @TempDir
    Path data;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"sqlite", "postgresql"})
    void endedWorkAndUnusedVideosGoWithTheirFiles(String db) throws Exception {
        onDatabase(db, database -> {
            var blobs = new LocalBlobStore(data.resolve("files"));
            var seed = new Seed(database, blobs, data.resolve("files"));
            var clock = new VirtualClock(T0.plus(KEEP).minus(Duration.ofHours(1)));
            var quotas = new QuotaGuard(Quotas.DEFAULT, data, clock);
            // Video A: analysed, planned and executed in its first two hours, never used again.
            seed.video("alice", "upl_a", "vid_a", T0);
            seed.file("uploads/upl_a/0-chk", T0); // a chunk a crash kept after assembly: the upload's files go with it
            seed.analysis("alice", "ana_a", "vid_a", "finished", T0, T0.plus(Duration.ofHours(1)));
            seed.plan("alice", "plan_a", "vid_a", "analyses/ana_a/analysis.json", T0.plus(Duration.ofHours(1)));
            seed.execution(
                    "alice",
                    "exe_a",
                    "vid_a",
                    "analyses/ana_a/analysis.json",
                    "finished",
                    T0,
                    T0.plus(Duration.ofHours(2)));
            // Video B: variant B, executed at once (failed), planned again on day 20.
            seed.video("alice", "upl_b", "vid_b", T0);
            seed.execution(
                    "alice", "exe_b", "vid_b", "plans/analyses/ana_b.json", "error", T0, T0.plus(Duration.ofHours(1)));
            seed.plan("alice", "plan_b", "vid_b", "plans/analyses/ana_b.json", T0.plus(Duration.ofDays(20)));
            // Video C: its execution is still running (a worker on another node): never touched.
            seed.video("bob", "upl_c", "vid_c", T0);
            seed.execution(
                    "bob",
                    "exe_c",
                    "vid_c",
                    "plans/analyses/ana_c.json",
                    "processing",
                    T0,
                    T0.plus(Duration.ofHours(1)));

            var retention = new Retention(database, blobs, quotas, clock, KEEP);
            assertEquals(new Retention.Removed(0, 0), retention.sweep(), "nothing ended 30 days ago yet");

            clock.set(T0.plus(KEEP).plus(Duration.ofHours(3)));
            assertEquals(
                    new Retention.Removed(2, 1),
                    retention.sweep(),
                    "exe_a and exe_b ended 30 days ago; then video A is unused");
            for (String key : new String[] {
                "executions/exe_a/out/video.mp4",
                "executions/exe_a/input/plan.json",
                "executions/exe_b/input/plan.json",
                "videos/vid_a/source",
                "videos/vid_a/audio.wav",
                "uploads/upl_a/0-chk",
                "analyses/ana_a/analysis.json",
                "plans/plan_a.json"
            }) {
                assertFalse(seed.exists(key), key + " is deleted");
            }
            assertEquals(0, seed.count("SELECT COUNT(*) FROM executions WHERE id IN ('exe_a', 'exe_b')"));
            assertEquals(
                    0, seed.count("SELECT COUNT(*) FROM jobs WHERE id IN ('job_exe_a', 'job_exe_b', 'job_ana_a')"));
            assertEquals(0, seed.count("SELECT COUNT(*) FROM uploads WHERE id = 'upl_a'"));
            assertEquals(0, seed.count("SELECT COUNT(*) FROM analyses WHERE video_id = 'vid_a'"));
            assertEquals(0, seed.count("SELECT COUNT(*) FROM plans WHERE video_id = 'vid_a'"));
            // B was planned on day 20; C's execution runs: both stay whole.
            for (String key : new String[] {
                "videos/vid_b/source",
                "plans/plan_b.json",
                "plans/analyses/ana_b.json",
                "videos/vid_c/source",
                "executions/exe_c/input/plan.json"
            }) {
                assertTrue(seed.exists(key), key + " stays");
            }
            assertEquals(1, seed.count("SELECT COUNT(*) FROM executions WHERE id = 'exe_c'"));
            assertEquals(2, seed.count("SELECT COUNT(*) FROM videos"));

            // A new analysis or execution of a removed video answers 404 naming video_id, not a broken foreign key.
            var uploads = new UploadService(
                    database,
                    blobs,
                    ServerConfig.from(Map.of("SCORECAST_DATA", data.toString())).uploads(),
                    quotas,
                    clock);
            var notFound = assertThrows(
                    NotFound.class,
                    () -> database.transaction(c -> {
                        uploads.holdVideo(c, new Principal("alice"), "vid_a");
                        return null;
                    }));
            assertEquals("video_id", notFound.field());
            uploads.close();

            clock.set(T0.plus(Duration.ofDays(20)).plus(KEEP).plus(Duration.ofMinutes(1)));
            assertEquals(new Retention.Removed(0, 1), retention.sweep(), "video B's last use was day 20");
            assertFalse(seed.exists("plans/analyses/ana_b.json"), "the analysis the client sent goes with its plan");
            assertFalse(seed.exists("videos/vid_b/source"));
            assertTrue(seed.exists("videos/vid_c/source"), "C's execution still runs");

            assertEquals(
                    new Retention.Removed(0, 0),
                    new Retention(database, blobs, quotas, clock, Duration.ZERO).sweep(),
                    "0 keeps everything");
        });
    }

    /**
     * Issue 28: failed work holds a user's share for less time than finished work. An execution that
     * ended in error and an analysis superseded by its retry go after SCORECAST_RETENTION_FAILED_HOURS
     * (3 days here), rows, charges and files; a finished execution and the current analysis stay
     * their 30 days.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"sqlite", "postgresql"})
    void failedWorkGoesSooner(String db) throws Exception {
        onDatabase(db, database -> {
            var blobs = new LocalBlobStore(data.resolve("files"));
            var seed = new Seed(database, blobs, data.resolve("files"));
            var clock = new VirtualClock(T0.plus(Duration.ofDays(3)));
            var quotas = new QuotaGuard(Quotas.DEFAULT, data, database, clock);
            Principal alice = new Principal("alice");
            seed.video("alice", "upl_d", "vid_d", T0);
            seed.analysis("alice", "ana_failed", "vid_d", "error", T0, T0.plus(Duration.ofHours(1)));
            database.query(c -> Rows.update(
                    c,
                    "UPDATE analyses SET superseded_at = ? WHERE id = 'ana_failed'",
                    T0.plus(Duration.ofHours(1)).toEpochMilli()));
            seed.analysis(
                    "alice",
                    "ana_current",
                    "vid_d",
                    "finished",
                    T0.plus(Duration.ofHours(1)),
                    T0.plus(Duration.ofHours(2)));
            seed.execution(
                    "alice",
                    "exe_failed",
                    "vid_d",
                    "analyses/ana_current/analysis.json",
                    "error",
                    T0,
                    T0.plus(Duration.ofHours(3)));
            seed.execution(
                    "alice",
                    "exe_done",
                    "vid_d",
                    "analyses/ana_current/analysis.json",
                    "finished",
                    T0,
                    T0.plus(Duration.ofHours(3)));
            database.transaction(c -> {
                quotas.chargeAnyway(
                        c, alice, Stored.forExecution("exe_failed", "executions/exe_failed/input/plan.json", 1_000));
                quotas.chargeAnyway(
                        c, alice, Stored.forExecution("exe_done", "executions/exe_done/out/video.mp4", 50_000));
                quotas.chargeAnyway(c, alice, Stored.forVideo("vid_d", "analyses/ana_failed/analysis.json", 7));
                return null;
            });
            long before = database.<Long>query(c -> quotas.storedBytes(c, alice));

            var retention = new Retention(database, blobs, quotas, clock, KEEP, Duration.ofDays(3));
            assertEquals(new Retention.Removed(0, 0, 0), retention.sweep(), "nothing failed three days ago yet");

            clock.set(T0.plus(Duration.ofDays(3)).plus(Duration.ofHours(4)));
            assertEquals(
                    new Retention.Removed(1, 0, 1),
                    retention.sweep(),
                    "the failed execution and the superseded analysis go");
            assertFalse(seed.exists("executions/exe_failed/input/plan.json"));
            assertFalse(seed.exists("analyses/ana_failed/analysis.json"));
            assertEquals(0, seed.count("SELECT COUNT(*) FROM jobs WHERE id IN ('job_exe_failed', 'job_ana_failed')"));
            assertEquals(0, seed.count("SELECT COUNT(*) FROM analyses WHERE id = 'ana_failed'"));
            assertEquals(
                    before - 1_007,
                    (long) database.query(c -> quotas.storedBytes(c, alice)),
                    "their charges went with them");
            for (String key : new String[] {
                "executions/exe_done/out/video.mp4", "analyses/ana_current/analysis.json", "videos/vid_d/source"
            }) {
                assertTrue(seed.exists(key), key + " stays");
            }
            assertEquals(1, seed.count("SELECT COUNT(*) FROM stored_bytes WHERE execution_id = 'exe_done'"));

            clock.set(T0.plus(KEEP).plus(Duration.ofHours(4)));
            assertEquals(
                    new Retention.Removed(1, 1, 0),
                    retention.sweep(),
                    "the finished execution goes at 30 days, then the unused video");
            assertEquals(0, seed.count("SELECT COUNT(*) FROM stored_bytes WHERE execution_id = 'exe_done'"));
        });
    }

    private interface WithDatabase {
        void run(Database database) throws Exception;
    }

    private void onDatabase(String db, WithDatabase test) throws Exception {
        PostgresSchema.WithDatabase withUrl = url -> {
            String jdbc = url != null ? url : "jdbc:sqlite:" + data.resolve("scorecast.db");
            try (Database database = Database.open(jdbc)) {
                test.run(database);
            }
        };
        if (db.equals("sqlite")) {
            withUrl.run(null);
        } else {
            PostgresSchema.run(withUrl);
        }
    }
}
