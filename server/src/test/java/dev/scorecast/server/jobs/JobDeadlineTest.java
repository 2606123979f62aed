package dev.scorecast.server.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** The deadline on virtual time: a clock the test moves. */
class JobDeadlineTest {
    private static final class MovableClock extends Clock {
        Instant now = Instant.parse("2026-11-23T00:00:00Z");

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void grantsTwoMinutesPlusTenTimesTheVideoAndThenStops() {
        MovableClock clock = new MovableClock();
        JobDeadline deadline = JobDeadline.forVideo(60, clock);
        assertEquals(Duration.ofSeconds(720), deadline.allowed());
        clock.now = clock.now.plusSeconds(720);
        deadline.check();
        clock.now = clock.now.plusMillis(1);
        JobDeadline.Passed passed = assertThrows(JobDeadline.Passed.class, deadline::check);
        assertEquals(Duration.ofSeconds(720), JobDeadline.passedIn(new CompletionException(passed)).orElseThrow());
        assertTrue(JobDeadline.passedIn(new IllegalStateException("other")).isEmpty());
    }
}
