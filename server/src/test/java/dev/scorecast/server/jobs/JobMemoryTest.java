package dev.scorecast.server.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.server.db.Database;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job that keeps taking memory is stopped at its budget with JobMemory.Exceeded (its service ends
 * it memory_budget_exceeded), while another job running beside it finishes. Before, nothing
 * stopped it: it ran until the heap was gone and the OutOfMemoryError fell on whoever allocated next.
 */
class JobMemoryTest {
    @TempDir
    Path data;

    @Test
    void aJobOverItsBudgetIsStoppedAndTheOtherFinishes() throws Exception {
        long budget = 128L << 20;
        Map<String, Object> outcome = new ConcurrentHashMap<>();
        CountDownLatch done = new CountDownLatch(2);
        long[] heldWhenStopped = {0};
        try (Database database = Database.open("jdbc:sqlite:" + data.resolve("jobs.db"));
                JobRunner runner = JobRunner.builder(database, "node-memory").threads(2).pollingInterval(Duration.ofMillis(100))
                        .memory(new JobMemory(budget))
                        .task("work", id -> {
                            try {
                                JobDeadline deadline = JobDeadline.forVideo(600, Clock.systemUTC());
                                if (id.equals("hog")) {
                                    // Keeps 8 MiB more after each progress report, up to the whole heap and past it.
                                    List<byte[]> kept = new ArrayList<>();
                                    long limit = Runtime.getRuntime().maxMemory() + (1L << 30);
                                    for (long held = 0; held < limit; held += 8 << 20) {
                                        kept.add(new byte[8 << 20]);
                                        heldWhenStopped[0] = held + (8 << 20);
                                        deadline.check();
                                        Thread.sleep(5);
                                    }
                                    outcome.put(id, "ran to the end");
                                } else {
                                    // Light work for 6 s: small allocations let go at once.
                                    long end = System.nanoTime() + 6_000_000_000L;
                                    while (System.nanoTime() < end) {
                                        byte[] scratch = new byte[64 << 10];
                                        scratch[0] = 1;
                                        deadline.check();
                                        Thread.sleep(2);
                                    }
                                    outcome.put(id, "finished");
                                }
                            } catch (Throwable e) {
                                outcome.put(id, e);
                            } finally {
                                done.countDown();
                            }
                        }).build()) {
            runner.enqueue("work", "light", 0);
            runner.enqueue("work", "hog", 0);
            runner.start();
            assertTrue(done.await(120, TimeUnit.SECONDS), "both ran: " + outcome);
        }
        System.out.printf("job memory: the hog was stopped holding %d MiB (budget %d MiB); the other job: %s%n",
                heldWhenStopped[0] >> 20, budget >> 20, outcome.get("light"));
        assertTrue(outcome.get("hog") instanceof Throwable t && JobMemory.exceededIn(t).isPresent(), "the hog was stopped: " + outcome.get("hog"));
        assertEquals("finished", outcome.get("light"));
        // How far past its budget a job gets depends on when the collector last ran: the budget is judged on the heap after a
        // collection, and a job that allocates only large arrays may run long without one (CI saw 624 MiB, and on a 6 GiB
        // heap 3,400 MiB, on a 128 MiB budget; docs/RELIABILITY.md). What holds is that it is stopped by its budget, with
        // the heap not gone (no OutOfMemoryError, the job beside it finished), which the code before never did.
        System.out.printf("job memory: stopped at %d MiB of a %d MiB heap%n", heldWhenStopped[0] >> 20, Runtime.getRuntime().maxMemory() >> 20);
    }
}
