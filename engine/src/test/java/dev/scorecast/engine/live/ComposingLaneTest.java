package dev.scorecast.engine.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/** The composing thread serves performances in turn, a few compositions each at most; a withdrawn one never runs. */
class ComposingLaneTest {
    /** A composing thread the test runs a task at a time. */
    private static final class Held implements Executor {
        final ArrayDeque<Runnable> queue = new ArrayDeque<>();

        @Override
        public void execute(Runnable r) {
            queue.add(r);
        }

        boolean runOne() {
            Runnable r = queue.poll();
            if (r != null) {
                r.run();
            }
            return r != null;
        }
    }

    @Test
    void performancesAreServedInTurnHoweverManyOneAsksFor() {
        Held thread = new Held();
        ComposingLane greedy = new ComposingLane(thread);
        ComposingLane modest = new ComposingLane(thread);
        List<String> ran = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int n = i;
            greedy.submit(() -> ran.add("greedy " + n));
        }
        modest.submit(() -> ran.add("modest"));
        assertEquals(2, thread.queue.size(), "one turn per lane in the thread's queue");
        while (thread.runOne()) {
            // run everything
        }
        assertEquals(List.of("greedy 0", "modest", "greedy 1", "greedy 2"), ran);
    }

    @Test
    void aWithdrawnCompositionNeverRunsAndAFullLaneDropsItsOldest() {
        Held thread = new Held();
        ComposingLane lane = new ComposingLane(thread);
        List<Integer> ran = new ArrayList<>();
        List<CompletableFuture<Boolean>> results = new ArrayList<>();
        for (int i = 0; i < ComposingLane.CAPACITY + 2; i++) {
            int n = i;
            results.add(lane.submit(() -> ran.add(n)));
        }
        assertTrue(
                results.get(0).isCancelled() && results.get(1).isCancelled(),
                "past the capacity the oldest waiting go");
        assertEquals(2, lane.cancelled());
        assertEquals(ComposingLane.CAPACITY, lane.waiting());
        lane.withdraw(results.get(3));
        assertTrue(results.get(3).isCancelled());
        while (thread.runOne()) {
            // run everything
        }
        assertEquals(List.of(2, 4, 5), ran);
        assertEquals(0, lane.waiting());
        assertTrue(thread.queue.isEmpty());
        // An idle lane takes work again.
        lane.submit(() -> ran.add(6));
        thread.runOne();
        assertEquals(List.of(2, 4, 5, 6), ran);
    }
}
