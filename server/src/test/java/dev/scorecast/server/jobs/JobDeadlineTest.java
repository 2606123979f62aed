package dev.scorecast.server.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.server.VirtualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** The deadline on virtual time: a clock the test moves. */
class JobDeadlineTest {
    @Test
    void grantsTwoMinutesPlusTenTimesTheVideoAndThenStops() {
        VirtualClock clock = new VirtualClock(Instant.parse("2026-11-23T00:00:00Z"));
        JobDeadline deadline = JobDeadline.forVideo(60, clock);
        assertEquals(Duration.ofSeconds(720), deadline.allowed());
        clock.advance(Duration.ofSeconds(720));
        deadline.check();
        clock.advance(Duration.ofMillis(1));
        JobDeadline.Passed passed = assertThrows(JobDeadline.Passed.class, deadline::check);
        assertEquals(
                Duration.ofSeconds(720),
                JobDeadline.passedIn(new CompletionException(passed)).orElseThrow());
        assertTrue(JobDeadline.passedIn(new IllegalStateException("other")).isEmpty());
    }
}
