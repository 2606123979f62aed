package dev.scorecast.server.jobs;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A memory budget per job. A job's run is watched from when its worker starts it ({@link #enter});
 * at each progress report (where {@link JobDeadline#check} runs) the heap the last collection left
 * (what is held, not garbage; read at most every {@link #READ_NANOS}) is compared with what it was
 * when the job started. When it has grown by more than the budget, a full collection settles
 * what is really held (at most one per {@link #SETTLE_NANOS} on the node), and if the growth
 * remains, the running job that has allocated the most since it started (its worker thread's count,
 * the best the JVM tells) is stopped: its next progress report throws {@link Exceeded}, and the job
 * ends {@code error} with {@code memory_budget_exceeded}, while the heap still has room for the
 * other users' jobs and streams. Before, such a job ran until the JVM had no memory left, and the
 * {@code OutOfMemoryError} then struck whichever thread allocated next (another user's job, a live
 * stream's render turn).
 */
public final class JobMemory {
    private static final Logger LOG = LoggerFactory.getLogger(JobMemory.class);
    /** The shortest time between two full collections this guard asks for. */
    static final long SETTLE_NANOS = 2_000_000_000L;
    private static final ThreadLocal<Watch> CURRENT = new ThreadLocal<>();

    private final long budgetBytes;
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final Map<String, Watch> running = new ConcurrentHashMap<>();
    private long settledAt = System.nanoTime() - SETTLE_NANOS;

    /** {@code budgetBytes} of heap growth a job may cause; 0 turns the guard off. */
    public JobMemory(long budgetBytes) {
        this.budgetBytes = budgetBytes;
    }

    /** A third of the heap: two workers' jobs and the node's own needs (live streams, requests) fit beside each other. */
    public static long defaultBudget() {
        return Runtime.getRuntime().maxMemory() / 3;
    }

    public long budgetBytes() {
        return budgetBytes;
    }

    /** Watches the job the current thread starts running; {@link #leave} when it ends. */
    Watch enter(String jobId) {
        Thread thread = Thread.currentThread();
        Watch watch = new Watch(jobId, thread.threadId(), budgetBytes > 0 ? heldAfterGc() : 0, threads.getThreadAllocatedBytes(thread.threadId()));
        if (budgetBytes > 0) {
            running.put(jobId, watch);
            CURRENT.set(watch);
        }
        return watch;
    }

    void leave(Watch watch) {
        running.remove(watch.jobId, watch);
        CURRENT.remove();
    }

    /** The watch of the job this thread runs, if any (a deadline made on it checks the budget too). */
    static Optional<Watch> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    /** How often the heap left by the last collection is read again (reading it allocates a little). */
    static final long READ_NANOS = 100_000_000L;
    private volatile long heldReadAt = System.nanoTime() - READ_NANOS;
    private volatile long held = -1;

    /** The heap in use after the latest collection (any collector), read at most every READ_NANOS; the heap in use before any. */
    private long heldAfterGc() {
        if (held >= 0 && System.nanoTime() - heldReadAt < READ_NANOS) {
            return held;
        }
        long latestEnd = -1;
        long sum = -1;
        for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof com.sun.management.GarbageCollectorMXBean sun) {
                var info = sun.getLastGcInfo();
                if (info != null && info.getEndTime() > latestEnd) {
                    latestEnd = info.getEndTime();
                    sum = 0;
                    for (var pool : ManagementFactory.getMemoryPoolMXBeans()) {
                        var after = info.getMemoryUsageAfterGc().get(pool.getName());
                        if (pool.getType() == java.lang.management.MemoryType.HEAP && after != null) {
                            sum += after.getUsed();
                        }
                    }
                }
            }
        }
        held = sum >= 0 ? sum : heapUsed();
        heldReadAt = System.nanoTime();
        return held;
    }

    private long heapUsed() {
        return memory.getHeapMemoryUsage().getUsed();
    }

    /** Whether a job's growth past the budget survives a collection; if so, the largest allocator among running jobs is stopped. */
    private void judge(Watch asking, long grown) {
        synchronized (this) {
            if (System.nanoTime() - settledAt < SETTLE_NANOS) {
                return;
            }
            settledAt = System.nanoTime();
            System.gc(); // rare: only when a job's heap growth already looks over its budget
            long held = heapUsed() - asking.heapAtStart; // right after a full collection: what is held
            this.held = -1;
            if (held <= budgetBytes) {
                return;
            }
            Watch largest = asking;
            long most = -1;
            for (Watch w : running.values()) {
                long allocated = threads.getThreadAllocatedBytes(w.threadId) - w.allocatedAtStart;
                if (allocated > most) {
                    most = allocated;
                    largest = w;
                }
            }
            largest.exceeded = held;
            LOG.warn("job {} is stopped: the heap grew by {} MiB while it ran (budget {} MiB a job), and it allocated the most ({} MiB)",
                    largest.jobId, held >> 20, budgetBytes >> 20, most >> 20);
        }
    }

    /** One running job. */
    public final class Watch {
        final String jobId;
        final long threadId;
        final long heapAtStart;
        final long allocatedAtStart;
        volatile long exceeded = -1;

        Watch(String jobId, long threadId, long heapAtStart, long allocatedAtStart) {
            this.jobId = jobId;
            this.threadId = threadId;
            this.heapAtStart = heapAtStart;
            this.allocatedAtStart = allocatedAtStart;
        }

        /** Throws {@link Exceeded} once this job was found over its budget. Cheap: one heap reading. */
        public void check() {
            if (exceeded < 0 && budgetBytes > 0) {
                long grown = heldAfterGc() - heapAtStart;
                if (grown > budgetBytes) {
                    judge(this, grown);
                }
            }
            if (exceeded >= 0) {
                throw new Exceeded(exceeded, budgetBytes);
            }
        }
    }

    /** The signal that ends a job over its budget; no stack trace, its message says it all. */
    public static final class Exceeded extends RuntimeException {
        private final long budget;

        Exceeded(long held, long budget) {
            super("the job held " + (held >> 20) + " MiB, more than its budget of " + (budget >> 20) + " MiB", null, false, false);
            this.budget = budget;
        }

        public long budget() {
            return budget;
        }
    }

    /** The budget a job was stopped for, also when a stage's thread threw it and it arrives wrapped. */
    public static Optional<Long> exceededIn(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof Exceeded e) {
                return Optional.of(e.budget());
            }
        }
        return Optional.empty();
    }
}
