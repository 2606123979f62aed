package dev.scorecast.server.jobs;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.logging.LogLevel;
import com.github.kagkarlsson.scheduler.task.FailureHandler;
import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import dev.scorecast.engine.core.Ticker;
import dev.scorecast.server.config.NodeIds;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one adapter over db-scheduler. Jobs live in the metadata database, so any worker on the
 * same database can run them. A worker holds a job under its node id and renews a heartbeat while
 * it runs; after {@link #MISSED_HEARTBEATS} missed heartbeats another worker takes the job over
 * (within a minute at the default 5 s heartbeat), and a worker that restarts under the same node id
 * first lets go of what its earlier run held. A node that runs no jobs (role {@code api}) only
 * queues them. Stages register their tasks here; nothing else imports the library.
 */
public final class JobRunner implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JobRunner.class);
    /** Missed heartbeats after which a job's worker counts as dead. */
    public static final int MISSED_HEARTBEATS = 6;

    private final SchedulerClient client;
    private final Scheduler scheduler;
    private final Map<String, OneTimeTask<String>> oneTime;
    private final Database database;
    private final String nodeId;
    private final Clock clock;

    private JobRunner(
            SchedulerClient client,
            Scheduler scheduler,
            Map<String, OneTimeTask<String>> oneTime,
            Database database,
            String nodeId,
            Clock clock) {
        this.client = client;
        this.scheduler = scheduler;
        this.oneTime = oneTime;
        this.database = database;
        this.nodeId = nodeId;
        this.clock = clock;
    }

    /**
     * Queues one run of the task {@code name} for {@code jobId}, to start at once on whichever
     * worker is free. Scheduling the same job id twice keeps the first.
     */
    public void enqueue(String name, String jobId) {
        enqueue(name, jobId, 0);
    }

    /**
     * As {@link #enqueue(String, String)}, behind {@code ownersQueued} jobs its owner already has
     * pending or running. Workers take the highest priority first, and a job's priority falls with
     * its place in its owner's own queue: one user's tenth job waits behind every other user's
     * first, so no one's queue starves the others (round robin between users).
     */
    public void enqueue(String name, String jobId, int ownersQueued) {
        OneTimeTask<String> task = oneTime.get(name);
        if (task == null) {
            throw new IllegalArgumentException("no task named " + name);
        }
        int priority = Math.max(0, FAIR_SHARE_TOP - Math.max(0, ownersQueued));
        try {
            // db-scheduler's own times (when a run is due) are on the system clock it compares them with, not the
            // service's.
            client.scheduleIfNotExists(
                    task.instanceBuilder(jobId).data(jobId).priority(priority).scheduledTo(Instant.now()));
        } catch (RuntimeException e) {
            if (!Database.unavailable(e)) {
                throw e;
            }
            // The job's row is committed before this (db-scheduler writes on a connection of its own), so the caller
            // has a job to answer with; the database went away in between. requeueUnscheduled queues it once the
            // database answers again.
            LOG.warn(
                    "job {} is saved but the database did not take its run ({}); it is queued by the next sweep",
                    jobId,
                    e.toString());
        }
    }

    /** How long a pending job may have no run queued before {@link #requeueUnscheduled} takes it for one the database lost. */
    public static final Duration UNSCHEDULED_AFTER = Duration.ofSeconds(30);

    /**
     * Queues a run for every pending job of {@code kind} that has none: a job whose scheduling the
     * database did not take ({@link #enqueue}), or whose run ended without its state being written.
     * Only jobs older than {@link #UNSCHEDULED_AFTER} count, so a job committed a moment ago and
     * about to be scheduled is left alone. Safe to repeat and to run on any node. Returns the jobs
     * queued.
     */
    public List<String> requeueUnscheduled(String kind, String name) {
        long before = clock.millis() - UNSCHEDULED_AFTER.toMillis();
        List<String> orphans = database.query(c -> Rows.list(
                c,
                "SELECT id FROM jobs WHERE kind = ? AND status = ? AND created_at < ? AND NOT EXISTS"
                        + " (SELECT 1 FROM scheduled_tasks WHERE task_name = ? AND task_instance = jobs.id)",
                row -> row.getString("id"),
                kind,
                JobStatus.PENDING.wire(),
                before,
                name));
        orphans.forEach(id -> enqueue(name, id));
        if (!orphans.isEmpty()) {
            LOG.warn("queued {} {} jobs that had no run queued: {}", orphans.size(), kind, orphans);
        }
        return orphans;
    }

    /** How soon a job cut off by the database or the store being away runs again: long enough not to spend its starts on one outage. */
    public static final Duration RETRY_AFTER_UNAVAILABLE = Duration.ofSeconds(15);

    /** How soon a job that was not its owner's turn ({@link JobTurns}) is asked again. */
    static final Duration TURN_RETRY = Duration.ofSeconds(2);

    /** How soon a run cut off by its node stopping runs again (on any worker). */
    static final Duration RETRY_AFTER_STOP = Duration.ofSeconds(3);

    /** The priority of a user's first queued job; each further one of theirs is one lower. */
    static final int FAIR_SHARE_TOP = 1000;

    /** Whether this node runs jobs (a worker) or only queues them. */
    public boolean runsJobs() {
        return scheduler != null;
    }

    /** The name this node holds jobs under. */
    public String nodeId() {
        return nodeId;
    }

    /**
     * Lets go of every job an earlier run of this node held (killed, it never said it stopped), and
     * starts running jobs. Only rows held under this node's id are touched: another live node's work
     * is never taken here, only by db-scheduler once that node misses its heartbeats. Call once this
     * node holds its port, which proves no other live process on the host has its id.
     */
    public void start() {
        if (scheduler == null) {
            return;
        }
        List<String> released = releaseHeldBy(database, nodeId, clock);
        if (!released.isEmpty()) {
            LOG.info("released {} jobs an earlier run of node {} held: {}", released.size(), nodeId, released);
        }
        scheduler.start();
    }

    /**
     * Marks the executions this node may take over at start ({@link NodeIds#mayTakeOver}: held by
     * its own id, or by a dead process of this host) as free to pick, and puts their jobs that showed
     * {@code processing} back to {@code pending}. Returns the task instances released.
     */
    static List<String> releaseHeldBy(Database database, String nodeId, Clock clock) {
        return database.transaction(c -> {
            var held = Rows.list(
                    c,
                    "SELECT task_name, task_instance, picked_by FROM scheduled_tasks WHERE picked = TRUE"
                            + database.forUpdate(),
                    row -> new String[] {
                        row.getString("task_name"), row.getString("task_instance"), row.getString("picked_by")
                    });
            List<String> released = new ArrayList<>();
            for (String[] row : held) {
                if (!NodeIds.mayTakeOver(nodeId, row[2])) {
                    continue;
                }
                Rows.update(
                        c,
                        "UPDATE scheduled_tasks SET picked = FALSE, picked_by = NULL, last_heartbeat = NULL, version = version + 1"
                                + " WHERE task_name = ? AND task_instance = ? AND picked_by = ?",
                        row[0],
                        row[1],
                        row[2]);
                Rows.update(
                        c,
                        "UPDATE jobs SET status = 'pending', message = ?, updated_at = ? WHERE id = ? AND status = 'processing'",
                        "Queued again: the worker running it stopped.",
                        clock.millis(),
                        row[1]);
                released.add(row[1]);
            }
            return released;
        });
    }

    /** A runner on {@code database} under {@code nodeId}; the jobs it releases are dated by {@code clock}, as JobRepository dates them. */
    public static Builder builder(Database database, String nodeId, Clock clock) {
        return new Builder(database, nodeId, clock);
    }

    @Override
    public void close() {
        if (scheduler != null) {
            scheduler.stop();
        }
    }

    /** Collects the tasks before the scheduler starts (db-scheduler needs them all up front). */
    public static final class Builder {
        private final Database database;
        private final String nodeId;
        private final Clock clock;
        private Ticker ticker = Ticker.SYSTEM;
        private final List<Task<?>> tasks = new ArrayList<>();
        private final Map<String, OneTimeTask<String>> oneTime = new HashMap<>();
        private final List<RecurringTask<?>> recurring = new ArrayList<>();
        private int threads = 2;
        private Duration pollingInterval = Duration.ofSeconds(1);
        private Duration heartbeat = Duration.ofSeconds(5);
        private boolean runsJobs = true;
        private BiConsumer<String, Duration> timer = (kind, took) -> {};
        /** Runs of this node's tasks in progress now. */
        private final AtomicInteger running = new AtomicInteger();

        private JobTurns turns;
        private JobMemory memory = new JobMemory(0);

        /** The memory budget each job's run is held to (JobMemory). */
        public Builder memory(JobMemory budget) {
            this.memory = budget;
            return this;
        }

        /** A user's second job waits while other users' jobs do, or while it would take this node's last free worker ({@link JobTurns}). */
        public Builder fairTurns() {
            this.turns = new JobTurns(database);
            return this;
        }

        private Builder(Database database, String nodeId, Clock clock) {
            this.database = database;
            this.nodeId = nodeId;
            this.clock = clock;
        }

        /** What times each run for {@link #timer} (the system's monotonic clock unless a test sets one). */
        public Builder ticker(Ticker runs) {
            this.ticker = runs;
            return this;
        }

        public Builder threads(int count) {
            this.threads = count;
            return this;
        }

        public Builder pollingInterval(Duration interval) {
            this.pollingInterval = interval;
            return this;
        }

        /** How often a worker renews its hold on running jobs; dead after {@link #MISSED_HEARTBEATS} of them. */
        public Builder heartbeat(Duration interval) {
            this.heartbeat = interval;
            return this;
        }

        /** False for a node that only queues jobs (role api): it polls for none and holds none. */
        public Builder runsJobs(boolean runs) {
            this.runsJobs = runs;
            return this;
        }

        /** Told the task name and wall time of every run on this node (metrics). */
        public Builder timer(BiConsumer<String, Duration> onRun) {
            this.timer = onRun;
            return this;
        }

        /** Runs {@code work} every {@code period}, on whichever worker gets to it first. */
        public Builder every(String name, Duration period, Runnable work) {
            recurring.add(Tasks.recurring(name, FixedDelay.of(period)).execute((instance, context) -> work.run()));
            return this;
        }

        /**
         * A task run once per enqueued job id. A worker that dies mid-run stops its heartbeat, and
         * another worker runs the job again, so {@code work} must be safe to repeat.
         */
        public Builder task(String name, Consumer<String> work) {
            // A run that fails by throwing was cut off by its node stopping (Stopping): run it again soon, not in five
            // minutes.
            // One that was not its owner's turn is asked again after TURN_RETRY.
            FailureHandler<String> again = (complete, operations) -> {
                Throwable cause = complete.getCause().orElse(null);
                if (!(cause instanceof JobTurns.NotYourTurn) && !(cause instanceof Unavailable)) {
                    LOG.warn(
                            "a run of {} {} was cut off; it runs again in {}",
                            name,
                            complete.getExecution().taskInstance.getId(),
                            RETRY_AFTER_STOP,
                            cause);
                }
                Duration after = cause instanceof JobTurns.NotYourTurn
                        ? TURN_RETRY
                        : cause instanceof Unavailable ? RETRY_AFTER_UNAVAILABLE : RETRY_AFTER_STOP;
                // On the system clock db-scheduler compares its due times with (as in enqueue).
                operations.reschedule(complete, Instant.now().plus(after));
            };
            OneTimeTask<String> task = Tasks.oneTime(name, String.class)
                    .onFailure(again)
                    .execute((instance, context) -> {
                        String jobId = instance.getData();
                        // Counted before asking, so that two workers asking at once both see each other.
                        int busy = running.getAndIncrement();
                        try {
                            if (turns != null && !turns.mayStart(jobId, busy, threads)) {
                                throw new JobTurns.NotYourTurn(jobId);
                            }
                            long started = ticker.nanos();
                            JobMemory.Watch watch = memory.enter(jobId);
                            try {
                                work.accept(jobId);
                            } finally {
                                memory.leave(watch);
                                if (turns != null) {
                                    turns.ended(jobId);
                                }
                                timer.accept(name, ticker.since(started));
                            }
                        } finally {
                            running.decrementAndGet();
                        }
                    });
            tasks.add(task);
            oneTime.put(name, task);
            return this;
        }

        /** Builds the runner; it queues jobs at once, and runs them from {@link JobRunner#start()}. */
        public JobRunner build() {
            var clientBuilder = SchedulerClient.Builder.create(database.dataSource(), tasks);
            if (database.isSqlite()) {
                clientBuilder.jdbcCustomization(new SqliteJdbcCustomization());
            }
            SchedulerClient client = clientBuilder.build();
            if (!runsJobs) {
                return new JobRunner(client, null, Map.copyOf(oneTime), database, nodeId, clock);
            }
            // startTasks registers the recurring tasks itself; listing them twice is an error.
            var builder = Scheduler.create(database.dataSource(), tasks);
            if (database.isSqlite()) {
                builder.jdbcCustomization(new SqliteJdbcCustomization());
            }
            Scheduler scheduler = builder.startTasks(recurring)
                    .schedulerName(() -> nodeId)
                    .threads(threads)
                    .pollingInterval(pollingInterval)
                    .heartbeatInterval(heartbeat)
                    .missedHeartbeatsLimit(MISSED_HEARTBEATS)
                    .enableImmediateExecution()
                    .enablePriority()
                    // Failures are logged by the failure handler above, which knows a job waiting its turn is none.
                    .failureLogging(LogLevel.DEBUG, false)
                    .shutdownMaxWait(Duration.ofSeconds(10))
                    .build();
            return new JobRunner(scheduler, scheduler, Map.copyOf(oneTime), database, nodeId, clock);
        }
    }
}
