package dev.scorecast.server.jobs;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.server.db.Database;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobFeedTest {
    @TempDir
    Path data;

    /** A request parked on a job (variant B's wait for its analysis) ends with the server, not at the end of its wait. */
    @Test
    void closingTheFeedWakesWhoeverWaitsOnAWatch() throws Exception {
        try (Database database = Database.open("jdbc:sqlite:" + data.resolve("jobs.db"))) {
            JobFeed feed = new JobFeed(database, Duration.ofMillis(250));
            JobFeed.Watch watch = feed.watch("no-such-job");
            CompletableFuture<Optional<JobFeed.Snapshot>> waiting = CompletableFuture.supplyAsync(() -> {
                try {
                    return watch.next(Duration.ofHours(1));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            feed.close();
            // An hour's wait cut short: the bound only keeps a broken wake-up from hanging the suite.
            Optional<JobFeed.Snapshot> seen = waiting.get(30, TimeUnit.SECONDS);
            assertFalse(seen.isPresent(), "nothing changed, so nothing to tell");
            assertTrue(feed.isClosed());
            watch.close();
        }
    }
}
