package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avutil.AV_NOPTS_VALUE;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A 90 kHz stream whose file starts at 1 s, at 25 pictures a second. */
class PresentationClockTest {
    private static final double TICK = 1 / 90_000.0;

    private static PresentationClock clock() {
        return new PresentationClock(TICK, 1.0, 1 / 25.0);
    }

    @Test
    void aTimestampCountsFromTheStartOfTheFile() {
        assertEquals(0.5, clock().secondsOf(135_000), 1e-12);
        assertEquals(0, clock().secondsOf(0));
    }

    @Test
    void aMissingTimestampComesOneFrameAfterTheLastDelivered() {
        PresentationClock clock = clock();
        assertEquals(0, clock.secondsOf(AV_NOPTS_VALUE));
        clock.delivered(2.0);
        assertEquals(2.04, clock.secondsOf(AV_NOPTS_VALUE), 1e-12);
    }

    @Test
    void timesNeverRunBackwards() {
        PresentationClock clock = clock();
        clock.delivered(5.0);
        assertEquals(5.0, clock.secondsOf(450_000)); // 4 s
        assertEquals(5.5, clock.secondsOf(585_000), 1e-12);
    }

    @Test
    void restartingForgetsTheLastDelivered() {
        PresentationClock clock = clock();
        clock.delivered(5.0);
        clock.restart();
        assertEquals(4.0, clock.secondsOf(450_000), 1e-12);
        assertEquals(0, clock.secondsOf(AV_NOPTS_VALUE));
    }
}
