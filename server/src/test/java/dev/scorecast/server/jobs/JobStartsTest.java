package dev.scorecast.server.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.server.db.Database;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A job whose runs keep being cut off is given up after a few starts, counted across restarts. */
class JobStartsTest {
    @TempDir
    Path data;

    @Test
    void aJobStartedTooOftenEndsAsErrorAndTheCountSurvivesARestart() {
        String url = "jdbc:sqlite:" + data.resolve("jobs.db");
        Instant now = Instant.parse("2026-11-24T00:00:00Z");
        try (Database database = Database.open(url)) {
            JobRepository jobs = new JobRepository(database, Clock.systemUTC());
            database.query(c -> {
                jobs.insert(
                        c,
                        new Job(
                                "job-1",
                                "alice",
                                "execution",
                                "exe-1",
                                JobStatus.PENDING,
                                0,
                                "Queued.",
                                null,
                                null,
                                now,
                                now));
                return null;
            });
            for (int i = 0; i < JobRepository.MAX_STARTS - 1; i++) {
                assertTrue(jobs.startOrGiveUp("job-1"), "start " + (i + 1));
            }
        }
        // The server restarts (a crash mid-run); the count is in the database, not in memory.
        try (Database database = Database.open(url)) {
            JobRepository jobs = new JobRepository(database, Clock.systemUTC());
            assertTrue(jobs.startOrGiveUp("job-1"), "the last allowed start");
            assertFalse(jobs.startOrGiveUp("job-1"), "one start too many");
            Job job = jobs.findForWorker("job-1").orElseThrow();
            assertEquals(JobStatus.ERROR, job.status());
            assertEquals("too_many_attempts", job.errorCode());
            assertTrue(job.message().contains("started " + JobRepository.MAX_STARTS + " times"), job.message());
        }
    }
}
