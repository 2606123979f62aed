package dev.scorecast.server.execution;

import dev.scorecast.engine.error.Overloaded;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Planning off the request threads. Requests run on virtual threads, which share the few carrier
 * threads with every other request and live stream; a long CPU-bound plan there would stall them
 * all. Here plans run on a few platform threads of their own behind a short queue: a full queue
 * answers 503 at once, and a plan past its deadline is interrupted (the planner checks) and
 * answered 503, so one request can hold at most one planning thread for one deadline.
 */
public final class PlanningPool implements AutoCloseable {
    /** Far above a real plan (milliseconds for an hour of video), far below a client's patience. */
    public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(10);

    private final ThreadPoolExecutor executor;
    private final Duration deadline;

    public PlanningPool(int threads, int queued, Duration deadline) {
        AtomicInteger count = new AtomicInteger();
        this.executor = new ThreadPoolExecutor(
                threads,
                threads,
                30,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(queued),
                r -> {
                    Thread t = new Thread(r, "planner-" + count.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                },
                new ThreadPoolExecutor.AbortPolicy());
        executor.allowCoreThreadTimeOut(true);
        this.deadline = deadline;
    }

    /** Two planning threads and a queue of 32: the default for a small server. */
    public static PlanningPool standard() {
        return new PlanningPool(2, 32, DEFAULT_DEADLINE);
    }

    /** {@code work}'s result, computed on a planning thread within the deadline. */
    public <T> T run(Supplier<T> work) {
        Future<T> future;
        try {
            future = executor.submit(work::get);
        } catch (RejectedExecutionException e) {
            throw new Overloaded(
                    "The server is planning as many videos as it takes on at once; try again in a few seconds.",
                    Duration.ofSeconds(5));
        }
        try {
            return future.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new Overloaded(
                    "Planning took longer than " + deadline.toSeconds() + " s and was stopped; try again later.",
                    Duration.ofSeconds(30));
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while waiting for a plan");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(cause);
        }
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
