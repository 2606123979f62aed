package dev.scorecast.server.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.server.db.Database;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One user's long queue does not starve another's: the other's first job runs before the first user's second. */
class FairQueueTest {
    @TempDir
    Path data;

    @Test
    void anotherUsersFirstJobRunsBeforeAQueuesSecond() throws Exception {
        List<String> ran = new CopyOnWriteArrayList<>();
        CountDownLatch allDone = new CountDownLatch(6);
        try (Database database = Database.open("jdbc:sqlite:" + data.resolve("jobs.db"));
                JobRunner runner = JobRunner.builder(database, "node-fair", Clock.systemUTC())
                        .threads(1)
                        .pollingInterval(Duration.ofMillis(100))
                        .task("work", id -> {
                            ran.add(id);
                            allDone.countDown();
                        })
                        .build()) {
            // Everything is queued before the only worker starts. Queued while a job runs, the order
            // would also depend on whether the scheduler's fetch (a few milliseconds behind each
            // enqueue) had seen bob's job when the worker freed; that race is the scheduler's, not
            // the priority order this test is about.
            for (int i = 0; i <= 4; i++) {
                runner.enqueue("work", "alice-" + i, i);
            }
            runner.enqueue("work", "bob-0", 0);
            runner.start();
            assertTrue(allDone.await(60, TimeUnit.SECONDS), "all ran: " + ran);
        }
        assertEquals(
                Set.of("alice-0", "bob-0"),
                Set.copyOf(ran.subList(0, 2)),
                "bob's first job comes before alice's second: " + ran);
        assertEquals(
                List.of("alice-1", "alice-2", "alice-3", "alice-4"), ran.subList(2, 6), "alice's in her order: " + ran);
    }
}
