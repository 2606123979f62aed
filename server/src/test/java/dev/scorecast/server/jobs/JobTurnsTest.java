package dev.scorecast.server.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's second long job waits while it would take a node's last worker, so another user who
 * comes while the first job runs starts at once. Before, alice's two jobs took both workers and bob
 * waited for one of them to end, however long.
 */
class JobTurnsTest {
    @TempDir
    Path data;

    @Test
    void aUsersSecondJobLeavesAWorkerForTheNextUser() throws Exception {
        List<String> started = new CopyOnWriteArrayList<>();
        Map<String, CountDownLatch> release = new ConcurrentHashMap<>();
        try (Database database = Database.open("jdbc:sqlite:" + data.resolve("jobs.db"));
                JobRunner runner = JobRunner.builder(database, "node-turns", Clock.systemUTC())
                        .threads(2)
                        .pollingInterval(Duration.ofMillis(100))
                        .fairTurns()
                        .task("work", id -> {
                            database.query(
                                    c -> Rows.update(c, "UPDATE jobs SET status = 'processing' WHERE id = ?", id));
                            started.add(id);
                            try {
                                release.computeIfAbsent(id, k -> new CountDownLatch(1))
                                        .await(60, TimeUnit.SECONDS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            database.query(c -> Rows.update(c, "UPDATE jobs SET status = 'finished' WHERE id = ?", id));
                        })
                        .build()) {
            job(database, "alice-0", "alice");
            job(database, "alice-1", "alice");
            runner.enqueue("work", "alice-0", 0);
            runner.enqueue("work", "alice-1", 1);
            runner.start();
            waitFor(() -> !started.isEmpty(), 10);
            Thread.sleep(2_000); // a second worker is free all along: alice's second job could take it
            assertEquals(
                    1, started.size(), "only one of alice's jobs runs while it would take the last worker: " + started);

            long queued = System.nanoTime();
            job(database, "bob-0", "bob");
            runner.enqueue("work", "bob-0", 0);
            waitFor(() -> started.contains("bob-0"), 10);
            System.out.printf(
                    "turns: bob's job started %.2f s after it was queued, with alice's first still running%n",
                    (System.nanoTime() - queued) / 1e9);
            assertTrue(started.contains("bob-0"), "bob's job starts while alice's first runs: " + started);

            release.computeIfAbsent(started.get(0), k -> new CountDownLatch(1)).countDown();
            waitFor(() -> started.size() == 3, 15);
            assertEquals(3, started.size(), "alice's second job runs once her first has ended: " + started);
            release.values().forEach(CountDownLatch::countDown);
            for (String id : List.of("alice-0", "alice-1", "bob-0")) {
                release.computeIfAbsent(id, k -> new CountDownLatch(1)).countDown();
            }
        }
    }

    private static void job(Database database, String id, String owner) {
        long now = System.currentTimeMillis();
        database.query(c -> Rows.update(
                c,
                "INSERT INTO jobs (id, owner, kind, subject_id, status, progress, message, created_at, updated_at)"
                        + " VALUES (?, ?, 'execution', ?, 'pending', 0, 'Queued.', ?, ?)",
                id,
                owner,
                id,
                now,
                now));
    }

    private static void waitFor(BooleanSupplier condition, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
    }
}
