package dev.scorecast.server.retention;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.server.VirtualClock;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import dev.scorecast.server.storage.LocalBlobStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The orphan sweep on virtual time: files a crash left that no row names go once untouched for the
 * grace time; files rows name, and any file touched within the grace (another node's work in
 * progress), stay.
 */
class OrphanSweeperTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Duration GRACE = Duration.ofHours(24);
    /** Above Linux's largest pid (2^22): no process of that id runs. */
    private static final long GONE_PID = 99_999_999L;

    @TempDir
    Path data;

    @Test
    void filesNoRowNamesGoOnceUntouchedForTheGrace() throws Exception {
        try (Database database = Database.open("jdbc:sqlite:" + data.resolve("scorecast.db"))) {
            var blobs = new LocalBlobStore(data.resolve("files"));
            var seed = new Seed(database, blobs, data.resolve("files"));
            // Named by rows: all stay, however old.
            seed.video("alice", "upl_ok", "vid_ok", T0);
            seed.activeUpload("alice", "upl_open", T0);
            seed.analysis("alice", "ana_ok", "vid_ok", "finished", T0, T0);
            seed.plan("alice", "plan_ok", "vid_ok", "plans/analyses/ana_sent.json", T0);
            seed.execution("alice", "exe_ok", "vid_ok", "analyses/ana_ok/analysis.json", "finished", T0, T0);
            // An upload being completed on another node: its video's files exist before the video's row.
            database.query(c -> Rows.update(c, """
                    INSERT INTO uploads (id, owner, variant, file_name, state, video_id, created_at, updated_at, expires_at)
                    VALUES ('upl_asm', 'bob', 'A', 'v.mp4', 'assembling', 'vid_asm', ?, ?, ?)""", T0.toEpochMilli(), T0.toEpochMilli(), 0L));
            seed.file("videos/vid_asm/source", T0);

            // Left by crashes, named by no row.
            List<String> orphans = List.of(
                    "executions/exe_dead/out/video.mp4",
                    "executions/exe_dead/input/plan.json",
                    "videos/vid_dead/source",
                    "uploads/upl_dead/0-chk",
                    "analyses/ana_dead/analysis.json",
                    "plans/plan_dead.json",
                    "plans/analyses/ana_dead.json",
                    "uploads/upl_ok/3-chk", // a chunk of a completed upload, kept by a crash after assembly
                    "uploads/upl_open/1-chk_dead"); // a chunk of an open upload whose row a crash kept from being
            // written
            orphans.forEach(key -> seed.file(key, T0));
            Path partial =
                    data.resolve("files/uploads/upl_open/1-chk." + GONE_PID + "-" + UUID.randomUUID() + ".partial");
            Files.writeString(partial, "half a chunk");
            Seed.touch(partial, T0);
            Path spooled = data.resolve("tmp/multipart/MultiPart123.tmp");
            Files.createDirectories(spooled.getParent());
            Files.writeString(spooled, "a part");
            Seed.touch(spooled, T0);
            // Another node's execution in progress: no row yet visible, its outputs written an hour ago.
            seed.file("executions/exe_live/out/video.mp4", T0.plus(Duration.ofHours(20)));
            seed.file("executions/exe_live/input/plan.json", T0);
            Path livePartial = data.resolve(
                    "files/videos/vid_ok/thumbnails-8.jpg." + GONE_PID + "-" + UUID.randomUUID() + ".partial");
            Files.writeString(livePartial, "being written");
            Seed.touch(livePartial, T0.plus(Duration.ofHours(20)));

            var clock = new VirtualClock(T0.plus(GRACE).minus(Duration.ofMinutes(1)));
            var sweeper = new OrphanSweeper(database, blobs, data, clock, GRACE);
            assertEquals(0, sweeper.sweep(), "nothing is untouched for 24 hours yet");
            orphans.forEach(key -> assertTrue(seed.exists(key), key));

            clock.set(T0.plus(GRACE).plus(Duration.ofMinutes(1)));
            // 7 groups: exe_dead, vid_dead, upl_dead, ana_dead, upl_ok's chunk, plan_dead.json, ana_dead.json;
            // upl_open's
            // unnamed chunk; and the spooled part.
            assertEquals(9, sweeper.sweep());
            orphans.forEach(key -> assertFalse(seed.exists(key), key + " is an orphan"));
            assertFalse(Files.exists(partial), "a dead writer's half-written chunk");
            assertFalse(Files.exists(spooled), "a multipart part spooled by a crashed request");
            for (String key : List.of(
                    "videos/vid_ok/source",
                    "videos/vid_ok/audio.wav",
                    "uploads/upl_open/0-chk",
                    "analyses/ana_ok/analysis.json",
                    "plans/plan_ok.json",
                    "plans/analyses/ana_sent.json",
                    "executions/exe_ok/out/video.mp4",
                    "executions/exe_ok/input/plan.json",
                    "videos/vid_asm/source")) {
                assertTrue(seed.exists(key), key + " is named by a row");
            }
            assertTrue(
                    seed.exists("executions/exe_live/input/plan.json"),
                    "a directory goes only when its newest file is old");
            assertTrue(Files.exists(livePartial), "a temporary file touched within the grace");

            clock.set(T0.plus(Duration.ofHours(20)).plus(GRACE).plus(Duration.ofMinutes(1)));
            assertEquals(1, sweeper.sweep(), "exe_live never got its row: now it is a crash's leftover");
            assertFalse(seed.exists("executions/exe_live/out/video.mp4"));
            assertFalse(Files.exists(livePartial));
            assertTrue(seed.exists("videos/vid_ok/source"));
        }
    }
}
