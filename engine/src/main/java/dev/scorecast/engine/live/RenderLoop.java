package dev.scorecast.engine.live;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One platform thread that runs a share of the performances: each turn it renders, for every one
 * of them, the blocks due by a moment a little ahead of now, then sleeps until that moment.
 *
 * <p>Waking once per turn for all its performances, instead of once per block of each, keeps the
 * thread's wake-ups at about a hundred a second however many streams it carries (a scheduler task
 * per performance woke some five thousand times a second at fifty streams, each wake a queue
 * operation and often a park and unpark). The margin that lets a turn render a block before it
 * falls due comes out of nothing: it is within the look-ahead, which already renders ahead of time.
 */
final class RenderLoop implements Runnable {
    private static final System.Logger LOG = System.getLogger(RenderLoop.class.getName());

    private final long turnNanos;
    private final AtomicLong lateBlocks;
    private final ConcurrentLinkedQueue<Performance> joining = new ConcurrentLinkedQueue<>();
    private final List<Performance> performances = new ArrayList<>();
    private final AtomicInteger size = new AtomicInteger();
    private final Thread thread;
    private volatile boolean stopping;

    RenderLoop(String name, long turnNanos, AtomicLong lateBlocks) {
        this.turnNanos = turnNanos;
        this.lateBlocks = lateBlocks;
        this.thread = Thread.ofPlatform().name(name).daemon().priority(Thread.MAX_PRIORITY).unstarted(this);
    }

    void start() {
        thread.start();
    }

    /** Performances on this loop, counting those about to join. */
    int size() {
        return size.get();
    }

    /** Adds {@code p} from any thread: it renders from the loop's next turn, which starts at once. */
    void add(Performance p) {
        size.incrementAndGet();
        joining.add(p);
        LockSupport.unpark(thread);
    }

    @Override
    public void run() {
        while (!stopping) {
            Performance p;
            while ((p = joining.poll()) != null) {
                performances.add(p);
            }
            long now = System.nanoTime();
            long until = now + turnNanos;
            for (int i = performances.size() - 1; i >= 0; i--) {
                if (!turn(performances.get(i), now, until)) {
                    performances.remove(i);
                    size.decrementAndGet();
                }
            }
            long sleep = until - System.nanoTime();
            if (sleep > 0 && joining.isEmpty()) {
                LockSupport.parkNanos(this, sleep);
            }
        }
        // Ends every performance still here, freeing synthesizers and encoders.
        performances.addAll(joining);
        for (Performance p : performances) {
            p.close();
            p.pump(0);
        }
    }

    /** One performance's turn: false when it has ended and leaves the loop. */
    private boolean turn(Performance p, long now, long until) {
        try {
            if (p.late(now)) {
                lateBlocks.incrementAndGet();
            }
            return p.pump(until) >= 0;
        } catch (RuntimeException | Error e) {
            // One broken performance must not stop the thread that runs the others.
            LOG.log(System.Logger.Level.ERROR, "live performance " + p.id + " failed; ending it", e);
            p.close();
            p.pump(System.nanoTime());
            return false;
        }
    }

    /** Stops the loop after its current turn, ending its performances; waits up to {@code millis}. */
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
