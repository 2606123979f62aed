package dev.scorecast.server.webhooks;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/** Wakes the dispatcher when this node records a delivery, so it need not wait for its next look at the queue. */
final class Doorbell {
    private final Semaphore rung = new Semaphore(0);

    void ring() {
        if (rung.availablePermits() == 0) {
            rung.release();
        }
    }

    /** Waits until rung or {@code timeout} has passed; a virtual thread waiting here holds no carrier. */
    void await(Duration timeout) throws InterruptedException {
        if (rung.tryAcquire(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            rung.drainPermits();
        }
    }
}
