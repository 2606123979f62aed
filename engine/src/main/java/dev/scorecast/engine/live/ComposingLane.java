package dev.scorecast.engine.live;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * One performance's way onto the engine's composing thread: its compositions wait here, at most
 * {@link #CAPACITY} of them, and it keeps at most one turn in the thread's queue at a time. A turn
 * composes one section and then goes to the back of the queue if the lane holds more, so the
 * composing thread serves the performances in turn, one composition each, however many one of them
 * asks for. (Every composition once went straight onto the thread's queue: a client sending
 * {@code set_intensity} in a loop queued thousands, and every other stream's next section waited
 * behind them and played without its notes; issue 28.)
 *
 * <p>A composition nobody needs any more (superseded by a later change) is {@linkplain #withdraw
 * withdrawn} while it waits and never runs. Past the capacity the oldest waiting one is cancelled:
 * the performance that asked for that much composes again what it still needs when it needs it.
 *
 * <p>Thread-safe: a render loop submits and withdraws, the composing thread runs the turns.
 */
final class ComposingLane {
    /** Compositions one performance may have waiting: a section ahead, a change at a bar line, a re-levelling, and one to spare. */
    static final int CAPACITY = 4;

    private final Executor thread;
    private final ArrayDeque<Task<?>> waiting = new ArrayDeque<>();
    /** Whether a turn of this lane is in the thread's queue or running. */
    private boolean queued;

    private long cancelled;

    private record Task<T>(CompletableFuture<T> result, Supplier<T> work) {
        void run() {
            if (result.isDone()) {
                return;
            }
            try {
                result.complete(work.get());
            } catch (VirtualMachineError e) {
                // The process short of memory, not this composition's fault: cancelled, it is composed again when
                // needed.
                result.cancel(false);
            } catch (RuntimeException | Error e) {
                result.completeExceptionally(e);
            }
        }
    }

    ComposingLane(Executor thread) {
        this.thread = thread;
    }

    /** Composes {@code work} on the composing thread in this lane's turn. */
    <T> CompletableFuture<T> submit(Supplier<T> work) {
        Task<T> task = new Task<>(new CompletableFuture<>(), work);
        boolean queue;
        synchronized (this) {
            waiting.removeIf(t -> t.result().isDone());
            while (waiting.size() >= CAPACITY) {
                waiting.pollFirst().result().cancel(false);
                cancelled++;
            }
            waiting.addLast(task);
            queue = !queued;
            queued = true;
        }
        if (queue) {
            thread.execute(this::turn);
        }
        return task.result();
    }

    /**
     * Takes back {@code result} if it is this lane's and still waits: it is cancelled and never
     * composed. One already composing finishes (its result then goes unused).
     */
    synchronized void withdraw(CompletableFuture<?> result) {
        if (result != null && waiting.removeIf(t -> t.result() == result)) {
            result.cancel(false);
        }
    }

    /** Compositions waiting now. */
    synchronized int waiting() {
        return (int) waiting.stream().filter(t -> !t.result().isDone()).count();
    }

    /** Compositions cancelled because the lane was full. */
    synchronized long cancelled() {
        return cancelled;
    }

    /** One turn on the composing thread: the oldest waiting composition, then back in line if more wait. */
    private void turn() {
        Task<?> next;
        synchronized (this) {
            do {
                next = waiting.pollFirst();
            } while (next != null && next.result().isDone());
            if (next == null) {
                queued = false;
                return;
            }
        }
        try {
            next.run();
        } finally {
            boolean again;
            synchronized (this) {
                waiting.removeIf(t -> t.result().isDone());
                again = !waiting.isEmpty();
                queued = again;
            }
            if (again) {
                thread.execute(this::turn);
            }
        }
    }
}
