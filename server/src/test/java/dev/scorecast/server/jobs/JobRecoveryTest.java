package dev.scorecast.server.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.scorecast.server.config.NodeIds;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Start-up recovery on a database several nodes share: a restarted node lets go of exactly what
 * its earlier run held, and never touches the work another live node holds.
 */
class JobRecoveryTest {
    @TempDir
    Path data;

    /** A process id that ran and ended. */
    private static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        return p.pid();
    }

    @Test
    void aNodeReleasesOnlyTheJobsItsEarlierRunHeld() throws Exception {
        try (Database database = Database.open("jdbc:sqlite:" + data.resolve("jobs.db"))) {
            long now = System.currentTimeMillis();
            String host = NodeIds.defaultId(1).replaceAll(":1$", "");
            String dead = host + ":pid" + deadPid() + "-0a1b2c3d";
            String alive = host + ":pid"
                    + ProcessHandle.current().parent().orElseThrow().pid() + "-0a1b2c3d";
            database.query(c -> {
                for (String[] row : new String[][] {
                    {"job_mine", "host:8160"},
                    {"job_other", "host:8161"},
                    {"job_queued", null},
                    {"job_dead_process", dead},
                    {"job_live_process", alive}
                }) {
                    Rows.update(
                            c,
                            "INSERT INTO jobs (id, owner, kind, subject_id, status, progress, message, created_at, updated_at)"
                                    + " VALUES (?, 'alice', 'execution', 'exe_x', ?, 0.4, 'Composing.', ?, ?)",
                            row[0],
                            row[1] == null ? "pending" : "processing",
                            now,
                            now);
                    Rows.update(
                            c,
                            "INSERT INTO scheduled_tasks (task_name, task_instance, execution_time, picked, picked_by, last_heartbeat, version)"
                                    + " VALUES ('execution', ?, ?, ?, ?, ?, 1)",
                            row[0],
                            new Timestamp(now - 60_000),
                            row[1] != null,
                            row[1],
                            row[1] == null ? null : new Timestamp(now));
                }
                return null;
            });

            assertEquals(
                    List.of("job_dead_process", "job_mine"),
                    JobRunner.releaseHeldBy(database, "host:8160", Clock.systemUTC()).stream()
                            .sorted()
                            .toList(),
                    "its own id's and those of a process of this host that no longer runs");

            assertEquals(
                    List.of("job_live_process", "job_other"),
                    database.query(c -> Rows.list(
                            c,
                            "SELECT task_instance FROM scheduled_tasks WHERE picked = TRUE ORDER BY task_instance",
                            row -> row.getString(1))));
            assertEquals(
                    "host:8161",
                    database.query(c -> Rows.one(
                                    c,
                                    "SELECT picked_by FROM scheduled_tasks WHERE task_instance = 'job_other'",
                                    row -> row.getString(1)))
                            .orElseThrow());
            assertEquals(
                    List.of(
                            "job_dead_process:pending",
                            "job_live_process:processing",
                            "job_mine:pending",
                            "job_other:processing",
                            "job_queued:pending"),
                    database.query(c -> Rows.list(
                            c,
                            "SELECT id, status FROM jobs ORDER BY id",
                            row -> row.getString(1) + ":" + row.getString(2))));
            assertEquals(
                    List.of(),
                    JobRunner.releaseHeldBy(database, "host:8160", Clock.systemUTC()),
                    "nothing is released twice");
        }
    }
}
