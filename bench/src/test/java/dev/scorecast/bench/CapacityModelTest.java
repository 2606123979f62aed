package dev.scorecast.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@code scorecast bench capacity}'s simulated day (docs/SCALING.md), checked on its own terms: a
 * seed gives one day, an overloaded fleet is seen as one (its waiting jobs counted), and a fleet
 * with room gives each job about its own time. Simulated time only: the bench package's fast test
 * (ChaosSliceTest, a fault campaign on real processes, is tagged slow).
 */
class CapacityModelTest {
    /** Mean video 1.5 min on 2-core workers, 2 slots, a job alone keeps 1.5 cores busy; two simulated hours. */
    private static final CapacityModel.Options OPTIONS =
            new CapacityModel.Options(new double[] {}, 1.5, 2, 2, 1.5, 16, 2);
    /** A mean job alone, upload complete to finished. */
    private static final double UNLOADED = 1.5 * CapacityModel.CPU_PER_MINUTE / 1.5;

    @Test
    void aSeedGivesOneDay() {
        assertEquals(CapacityModel.simulate(OPTIONS, 250, 3), CapacityModel.simulate(OPTIONS, 250, 3));
    }

    @Test
    void anOverloadedFleetIsSeenAsOneAndALargerFleetKeepsUp() {
        // 1000 jobs an hour ask about 6 cores: one 2-core worker cannot keep up, eight can.
        CapacityModel.Result one = CapacityModel.simulate(OPTIONS, 1000, 1);
        CapacityModel.Result eight = CapacityModel.simulate(OPTIONS, 1000, 8);
        System.out.printf(
                "capacity model at 1000 jobs/h: 1 worker p95 %.0f s, busy %.0f %%; 8 workers p95 %.0f s, busy %.0f %%%n",
                one.p95(), 100 * one.utilisation(), eight.p95(), 100 * eight.utilisation());
        assertTrue(one.utilisation() > 0.95, "one worker is saturated: " + one);
        assertTrue(one.p95() > 20 * UNLOADED, "the jobs still queued at the end count: " + one);
        assertTrue(eight.utilisation() > 0.2 && eight.utilisation() < 0.6, "eight workers have room: " + eight);
        assertTrue(eight.p95() < 4 * UNLOADED, "and give each job about its own time: " + eight);
        assertTrue(eight.p50() <= eight.p95());
    }
}
