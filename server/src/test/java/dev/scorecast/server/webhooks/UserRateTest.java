package dev.scorecast.server.webhooks;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.core.Ticker;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Each user's attempts per minute, on virtual time: the bucket refills as the ticker moves, not as the test waits. */
class UserRateTest {
    @Test
    void aUserOverTheRateWaitsForTheBucketToRefillAndOthersDoNot() {
        var ticker = new Ticker.Manual();
        var rate = new UserRate(3, ticker);
        for (int i = 0; i < 3; i++) {
            assertTrue(rate.tryTake("alice"), "attempt " + i);
        }
        assertFalse(rate.tryTake("alice"), "three a minute, and the minute has not moved");
        assertTrue(rate.tryTake("bob"), "another user's bucket is full");

        ticker.advance(Duration.ofSeconds(19));
        assertFalse(rate.tryTake("alice"), "19 s refill 0.95 of an attempt");
        ticker.advance(Duration.ofSeconds(2));
        assertTrue(rate.tryTake("alice"), "21 s refill more than one");
        assertFalse(rate.tryTake("alice"));
    }
}
