package dev.scorecast.engine.live;

import dev.scorecast.engine.core.Ticker;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One platform thread of the render loops. Each turn it goes through every performance of the
 * engine and renders, for each one no other loop is rendering at that moment, the blocks due by a
 * moment a little ahead of now; then it sleeps until that moment.
 *
 * <p>All loops share all performances, so a heavy experience (an orchestra holds twice the voices
 * of a techno loop) is carried by whichever core is free: with a fixed share each, one core fell
 * behind with the other half idle. Waking once per turn for all of them keeps a thread's wake-ups
 * at about a hundred a second however many streams there are (a scheduler task per performance
 * woke some five thousand times a second at fifty streams). Rendering a block a little before it
 * falls due costs nothing audible: it is within the look-ahead, which already renders ahead.
 */
final class RenderLoop implements Runnable {
    private static final System.Logger LOG = System.getLogger(RenderLoop.class.getName());

    private final Ticker ticker;
    private final long turnNanos;
    private final AtomicLong lateBlocks;
    private final List<Performance> performances;
    private final int index;
    private final int loops;
    private final Thread thread;
    private volatile boolean stopping;
    private static final double LOAD_SMOOTHING = 0.02;
    private volatile double load;

    /**
     * Loop {@code index} of {@code loops}, over {@code performances} (shared, safe to iterate while changed), on
     * {@code ticker}'s time (the performances' own); it sleeps between turns in real time whatever the ticker.
     */
    RenderLoop(
            String name,
            Ticker ticker,
            long turnNanos,
            AtomicLong lateBlocks,
            List<Performance> performances,
            int index,
            int loops) {
        this.ticker = ticker;
        this.turnNanos = turnNanos;
        this.lateBlocks = lateBlocks;
        this.performances = performances;
        this.index = index;
        this.loops = loops;
        this.thread = Thread.ofPlatform()
                .name(name)
                .daemon()
                .priority(Thread.MAX_PRIORITY)
                .unstarted(this);
    }

    void start() {
        thread.start();
    }

    /** The share of its time this loop spends rendering, 0 to 1, over the last half second or so. */
    double load() {
        return load;
    }

    /** Wakes the loop for a performance that has just joined. */
    void wake() {
        LockSupport.unpark(thread);
    }

    @Override
    public void run() {
        while (!stopping) {
            long now = ticker.nanos();
            long until = now + turnNanos;
            Performance[] all = performances.toArray(Performance[]::new);
            // Loops start their rounds at different places, so that they meet rather than queue.
            int first = all.length * index / loops;
            for (int i = 0; i < all.length; i++) {
                Performance p = all[(first + i) % all.length];
                if (p.claim()) {
                    try {
                        if (!turn(p, now, until)) {
                            performances.remove(p);
                        }
                    } finally {
                        p.release();
                    }
                }
            }
            long end = ticker.nanos();
            // The share of the turn spent rendering, smoothed over about half a second.
            load += LOAD_SMOOTHING * (Math.min(1.0, (end - now) / (double) turnNanos) - load);
            long sleep = until - end;
            if (sleep > 0) {
                LockSupport.parkNanos(this, sleep);
            }
        }
    }

    /**
     * One performance's turn: false when it has ended and leaves the loops. A failure of its own
     * ends it; the process running out of memory (most likely another user's job on this node, issue
     * 28) does not: it tries again next turn and catches up, and only a performance that keeps
     * failing so for {@link Performance#MAX_VM_ERROR_TURNS} turns in a row is ended.
     */
    private boolean turn(Performance p, long now, long until) {
        try {
            if (p.late(now)) {
                lateBlocks.incrementAndGet();
            }
            boolean running = p.pump(until) >= 0;
            p.turnSucceeded();
            return running;
        } catch (VirtualMachineError e) {
            if (p.survives(e)) {
                if (p.vmErrorTurns() == 1) {
                    LOG.log(
                            System.Logger.Level.WARNING,
                            "live performance " + p.id + " was interrupted by " + e
                                    + " (the process is short of memory); it goes on and catches up");
                }
                return true;
            }
            LOG.log(
                    System.Logger.Level.ERROR,
                    "live performance " + p.id + " failed " + p.vmErrorTurns() + " turns in a row; ending it",
                    e);
            p.close();
            p.pump(ticker.nanos());
            return false;
        } catch (RuntimeException | Error e) {
            // One broken performance must not stop the thread that runs the others.
            LOG.log(System.Logger.Level.ERROR, "live performance " + p.id + " failed; ending it", e);
            p.close();
            p.pump(ticker.nanos());
            return false;
        }
    }

    /** Stops the loop after its current turn; waits up to {@code millis}. */
    void stop(long millis) {
        stopping = true;
        LockSupport.unpark(thread);
        try {
            thread.join(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
