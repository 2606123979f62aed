package dev.scorecast.server.jobs;

import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Jobs as they change, for whoever watches them (the event streams of /sync/events). Any worker on
 * any node may be running a job, and all of them write to the database, so this reads the database:
 * one thread, one query every poll interval for every job watched on this node together (not one
 * query per watcher), and only while something is watched. A watcher waits on a condition, which a
 * virtual thread does without holding a carrier thread.
 */
public final class JobFeed implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JobFeed.class);
    /** Ids in one query's IN list. */
    private static final int BATCH = 500;

    /** A job's state as a watcher sees it. */
    public record Snapshot(String jobId, JobStatus status, double progress, String stage, String message) {}

    private final Database database;
    private final Duration interval;
    private final Map<String, Set<Watch>> watched = new ConcurrentHashMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition someoneWatches = lock.newCondition();
    private final Thread poller;
    private volatile boolean closed;

    public JobFeed(Database database, Duration interval) {
        this.database = database;
        this.interval = interval;
        this.poller = Thread.ofVirtual().name("job-feed").start(this::run);
    }

    /** Starts watching job {@code jobId}; its current state is there at once. Close the watch when done. */
    public Watch watch(String jobId) {
        var watch = new Watch(jobId);
        read(List.of(jobId)).stream().findFirst().ifPresent(watch::offer);
        watched.computeIfAbsent(jobId, id -> ConcurrentHashMap.newKeySet()).add(watch);
        lock.lock();
        try {
            someoneWatches.signalAll();
        } finally {
            lock.unlock();
        }
        return watch;
    }

    /** How many watches are open on this node (each event stream holds one). */
    public int watching() {
        return watched.values().stream().mapToInt(Set::size).sum();
    }

    private void run() {
        while (!closed) {
            try {
                lock.lock();
                try {
                    while (watched.isEmpty() && !closed) {
                        someoneWatches.await();
                    }
                } finally {
                    lock.unlock();
                }
                Thread.sleep(interval);
                List<String> ids = new ArrayList<>(watched.keySet());
                for (int from = 0; from < ids.size(); from += BATCH) {
                    for (Snapshot snapshot : read(ids.subList(from, Math.min(ids.size(), from + BATCH)))) {
                        Set<Watch> watches = watched.get(snapshot.jobId());
                        if (watches != null) {
                            watches.forEach(w -> w.offer(snapshot));
                        }
                    }
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // The database away for a moment: watchers keep their last state and get heartbeats meanwhile.
                LOG.warn("reading watched jobs failed; trying again", e);
            }
        }
    }

    private List<Snapshot> read(List<String> ids) {
        String marks = String.join(", ", Collections.nCopies(ids.size(), "?"));
        return database.query(c -> Rows.list(
                c,
                "SELECT id, status, progress, stage, message FROM jobs WHERE id IN (" + marks + ")",
                row -> new Snapshot(
                        row.getString("id"),
                        JobStatus.fromWire(row.getString("status")),
                        row.getDouble("progress"),
                        row.getString("stage"),
                        row.getString("message")),
                ids.toArray()));
    }

    @Override
    public void close() {
        closed = true;
        poller.interrupt();
        // Whoever waits on a watch is woken now rather than at the end of its wait: a request
        // parked on a job (variant B's analysis) ends with the server, not minutes after it.
        watched.values().forEach(watches -> watches.forEach(Watch::wake));
    }

    /** Whether the feed has stopped: a watch then has nothing more to tell. */
    public boolean isClosed() {
        return closed;
    }

    /** One watcher's view of one job: the newest state it has not taken yet. */
    public final class Watch implements AutoCloseable {
        private final String jobId;
        private final ReentrantLock watchLock = new ReentrantLock();
        private final Condition changed = watchLock.newCondition();
        private Snapshot latest;
        private Snapshot taken;

        private Watch(String jobId) {
            this.jobId = jobId;
        }

        private void offer(Snapshot snapshot) {
            watchLock.lock();
            try {
                if (!snapshot.equals(latest)) {
                    latest = snapshot;
                    changed.signalAll();
                }
            } finally {
                watchLock.unlock();
            }
        }

        /**
         * The job's state once it differs from what was last taken, waiting at most {@code timeout};
         * empty when nothing changed in that time (or the job is gone, or the feed closed).
         */
        public Optional<Snapshot> next(Duration timeout) throws InterruptedException {
            long left = timeout.toNanos();
            watchLock.lock();
            try {
                while ((latest == null || latest.equals(taken)) && left > 0 && !closed) {
                    left = changed.awaitNanos(left);
                }
                if (latest == null || latest.equals(taken)) {
                    return Optional.empty();
                }
                taken = latest;
                return Optional.of(latest);
            } finally {
                watchLock.unlock();
            }
        }

        private void wake() {
            watchLock.lock();
            try {
                changed.signalAll();
            } finally {
                watchLock.unlock();
            }
        }

        @Override
        public void close() {
            watched.computeIfPresent(jobId, (id, watches) -> {
                watches.remove(this);
                return watches.isEmpty() ? null : watches;
            });
        }
    }
}
