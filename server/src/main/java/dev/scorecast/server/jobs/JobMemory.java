package dev.scorecast.server.jobs;

import com.sun.management.ThreadMXBean;
import dev.scorecast.engine.core.Ticker;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A memory budget per job. A job's run is watched from when its worker starts it ({@link #enter});
 * at each progress report (where {@link JobDeadline#check} runs) the heap the collector keeps apart
 * from new objects (every heap pool but eden: with G1, the old generation, where large arrays go at
 * once, and the survivors) is read and compared with what it was when the job started. This reading
 * is an upper bound of what is held, up to what sits in eden until the next young collection, and
 * costs about a microsecond, so it is taken at every report. When it has grown by more than the
 * budget, a full collection settles what is really held, and if the growth remains, the running
 * job that has allocated the most since it started (its worker thread's count, the best the JVM
 * tells) is stopped: its next progress report throws {@link Exceeded}, and the job ends
 * {@code error} with {@code memory_budget_exceeded}.
 *
 * <p>Why not the heap the last collection left (the first version): a job allocating large arrays
 * fills the old generation without any collection, so it was judged only when one came, and ran to
 * 3,400 MiB of a 6 GiB heap on a 128 MiB budget. Why not only the job thread's allocated bytes as
 * the trigger: a stage hands its work to other threads (the render's groups run on a pool), whose
 * allocations that count never sees; the heap reading sees them all and is as cheap.
 *
 * <p>Forced collections are rare: besides the baseline's (the node's first job, and a job starting
 * over much garbage), they come only when the reading is past a budget, which ordinary jobs never
 * reach (docs/RELIABILITY.md has the render's peak growth), and then at most one every
 * {@link #SETTLE_NANOS}, sooner only when the heap grew by a quarter of a budget more since the last
 * one found it within the budget: so however fast a job allocates, it is stopped holding at most one
 * and a quarter budgets and one progress step. A job's growth is counted from a reading taken as it
 * starts, settled by a full collection when it holds much garbage ({@link #baseline}).
 */
public final class JobMemory {
    private static final Logger LOG = LoggerFactory.getLogger(JobMemory.class);
    /** The shortest time between two full collections this guard asks for, unless the heap grew by a quarter of a budget since. */
    static final long SETTLE_NANOS = 2_000_000_000L;

    private static final ThreadLocal<Watch> CURRENT = new ThreadLocal<>();

    private final long budgetBytes;
    /** The heap pools whose use is read: all but eden (new objects, mostly garbage, emptied by each young collection). */
    private final List<MemoryPoolMXBean> heldPools = heldPools();

    private final ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final Map<String, Watch> running = new ConcurrentHashMap<>();
    /** When the last forced collection ran, and the reading it left; guarded by this. */
    private long settledAt;

    private long settledLevel = Long.MIN_VALUE / 2;
    private final AtomicLong forcedCollections = new AtomicLong();

    /** Times the forced collections apart. */
    private final Ticker ticker;

    /** {@code budgetBytes} of heap growth a job may cause; 0 turns the guard off. */
    public JobMemory(long budgetBytes) {
        this(budgetBytes, Ticker.SYSTEM);
    }

    JobMemory(long budgetBytes, Ticker ticker) {
        this.budgetBytes = budgetBytes;
        this.ticker = ticker;
        this.settledAt = ticker.nanos() - SETTLE_NANOS;
    }

    /** A third of the heap: two workers' jobs and the node's own needs (live streams, requests) fit beside each other. */
    public static long defaultBudget() {
        return Runtime.getRuntime().maxMemory() / 3;
    }

    public long budgetBytes() {
        return budgetBytes;
    }

    /** How many full collections this guard has asked for (each when a job's reading was past its budget). */
    public long forcedCollections() {
        return forcedCollections.get();
    }

    private static List<MemoryPoolMXBean> heldPools() {
        List<MemoryPoolMXBean> heap = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP)
                .toList();
        List<MemoryPoolMXBean> held =
                heap.stream().filter(p -> !p.getName().contains("Eden")).toList();
        // A collector without an eden pool (a single-pool one): its whole heap, garbage and all, which only means more
        // looks.
        return held.isEmpty() ? heap : held;
    }

    /** The heap in use outside eden now. */
    long heldLevel() {
        long sum = 0;
        for (MemoryPoolMXBean pool : heldPools) {
            sum += pool.getUsage().getUsed();
        }
        return sum;
    }

    /** Watches the job the current thread starts running; {@link #leave} when it ends. */
    Watch enter(String jobId) {
        Thread thread = Thread.currentThread();
        Watch watch = new Watch(
                jobId,
                thread.threadId(),
                budgetBytes > 0 ? baseline() : 0,
                threads.getThreadAllocatedBytes(thread.threadId()));
        if (budgetBytes > 0) {
            running.put(jobId, watch);
            CURRENT.set(watch);
        }
        return watch;
    }

    void leave(Watch watch) {
        running.remove(watch.jobId, watch);
        CURRENT.remove();
        if (budgetBytes > 0) {
            // One line a job: the margin ordinary jobs keep to the budget is read from these (docs/RELIABILITY.md).
            LOG.info(
                    "job {}: the heap outside eden grew by at most {} MiB while it ran (budget {} MiB)",
                    watch.jobId,
                    Math.max(0, watch.peak.get()) >> 20,
                    budgetBytes >> 20);
        }
    }

    /** The watch of the job this thread runs, if any (a deadline made on it checks the budget too). */
    static Optional<Watch> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    /**
     * The heap outside eden as a job starts, what its growth is counted from. The reading includes garbage that the
     * old generation keeps until a mixed or full collection; a collection during the job that clears it would hide as
     * much of the job's growth (in the suite, 1.4 GB of earlier tests' garbage let a job keep 1,520 MiB on 128). So
     * when the reading is more than half a budget above what the last full collection left (or none ran yet), one
     * settles it first, at most one every {@link #SETTLE_NANOS}: the first job on a node, and rarely after.
     */
    private synchronized long baseline() {
        long level = heldLevel();
        if (level - settledLevel <= budgetBytes / 2 || ticker.nanos() - settledAt < SETTLE_NANOS) {
            return level;
        }
        long started = ticker.nanos();
        System.gc();
        forcedCollections.incrementAndGet();
        settledAt = ticker.nanos();
        settledLevel = heldLevel();
        LOG.info(
                "a job starts with {} MiB outside eden, {} MiB after a full collection ({} ms) that settles what it is counted from",
                level >> 20,
                settledLevel >> 20,
                (settledAt - started) / 1_000_000);
        return settledLevel;
    }

    /** Whether a job's growth past the budget survives a full collection; if so, the largest allocator among running jobs is stopped. */
    private synchronized void judge(Watch asking, long level) {
        if (asking.exceeded >= 0) {
            return; // judged meanwhile, on another thread of the same job
        }
        long now = ticker.nanos();
        if (now - settledAt < SETTLE_NANOS && level - settledLevel < budgetBytes / 4) {
            return; // the last collection found this heap within the budget, and it has not grown much since
        }
        System.gc(); // rare: only when a job's heap growth already looks over its budget
        forcedCollections.incrementAndGet();
        long after = heldLevel(); // eden is empty right after a full collection: this is what is held
        settledAt = ticker.nanos();
        settledLevel = after;
        // Measured from the start of each running job: a job that started before the one asking may be the one that
        // grew.
        long held = after - asking.heapAtStart;
        for (Watch w : running.values()) {
            held = Math.max(held, after - w.heapAtStart);
        }
        if (held <= budgetBytes) {
            LOG.info(
                    "job {}: the heap outside eden had grown by {} MiB (budget {} MiB); a full collection left {} MiB, within it",
                    asking.jobId,
                    (level - asking.heapAtStart) >> 20,
                    budgetBytes >> 20,
                    held >> 20);
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
        // What the stopped job holds goes when it unwinds: the next job over its budget is judged at once, not after
        // the settle time.
        settledAt = now - SETTLE_NANOS;
        settledLevel = Long.MIN_VALUE / 2;
        LOG.warn(
                "job {} is stopped: the heap grew by {} MiB while it ran (budget {} MiB a job), and it allocated the most ({} MiB)",
                largest.jobId,
                held >> 20,
                budgetBytes >> 20,
                most >> 20);
    }

    /** One running job. */
    public final class Watch {
        final String jobId;
        final long threadId;
        final long heapAtStart;
        final long allocatedAtStart;
        /** The largest growth a progress report saw, for the log line at its end. */
        final AtomicLong peak = new AtomicLong(Long.MIN_VALUE);

        volatile long exceeded = -1;

        Watch(String jobId, long threadId, long heapAtStart, long allocatedAtStart) {
            this.jobId = jobId;
            this.threadId = threadId;
            this.heapAtStart = heapAtStart;
            this.allocatedAtStart = allocatedAtStart;
        }

        /** Throws {@link Exceeded} once this job was found over its budget. Cheap: one reading of the heap's pools. */
        public void check() {
            if (exceeded < 0 && budgetBytes > 0) {
                long level = heldLevel();
                long grown = level - heapAtStart;
                if (grown > peak.get()) {
                    peak.accumulateAndGet(grown, Math::max);
                }
                if (grown > budgetBytes) {
                    judge(this, level);
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
            super(
                    "the job held " + (held >> 20) + " MiB, more than its budget of " + (budget >> 20) + " MiB",
                    null,
                    false,
                    false);
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
