package dev.scorecast.server.jobs;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import dev.scorecast.server.db.Database;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.ArrayList;
import java.util.List;

/**
 * The one adapter over db-scheduler. Jobs live in the metadata database, so any process on the
 * same database can run them, and a job whose worker died is picked up again after its heartbeat
 * stops. Stages register their tasks here; nothing else imports the library.
 */
public final class JobRunner implements AutoCloseable {
    private final Scheduler scheduler;
    private final Map<String, OneTimeTask<String>> oneTime;

    private JobRunner(Scheduler scheduler, Map<String, OneTimeTask<String>> oneTime) {
        this.scheduler = scheduler;
        this.oneTime = oneTime;
    }

    /**
     * Queues one run of the task {@code name} for {@code jobId}, to start at once on whichever
     * worker is free. Scheduling the same job id twice keeps the first.
     */
    public void enqueue(String name, String jobId) {
        OneTimeTask<String> task = oneTime.get(name);
        if (task == null) {
            throw new IllegalArgumentException("no task named " + name);
        }
        scheduler.scheduleIfNotExists(task.instance(jobId, jobId), Instant.now());
    }

    public static Builder builder(Database database) {
        return new Builder(database);
    }

    @Override
    public void close() {
        scheduler.stop();
    }

    /** Collects the tasks before the scheduler starts (db-scheduler needs them all up front). */
    public static final class Builder {
        private final Database database;
        private final List<Task<?>> tasks = new ArrayList<>();
        private final Map<String, OneTimeTask<String>> oneTime = new HashMap<>();
        private final List<RecurringTask<?>> recurring = new ArrayList<>();
        private int threads = 2;
        private Duration pollingInterval = Duration.ofSeconds(1);

        private Builder(Database database) {
            this.database = database;
        }

        public Builder threads(int count) {
            this.threads = count;
            return this;
        }

        public Builder pollingInterval(Duration interval) {
            this.pollingInterval = interval;
            return this;
        }

        /** Runs {@code work} every {@code period}, on whichever process gets to it first. */
        public Builder every(String name, Duration period, Runnable work) {
            recurring.add(Tasks.recurring(name, FixedDelay.of(period)).execute((instance, context) -> work.run()));
            return this;
        }

        /**
         * A task run once per enqueued job id. A worker that dies mid-run stops its heartbeat, and
         * another worker runs the job again, so {@code work} must be safe to repeat.
         */
        public Builder task(String name, Consumer<String> work) {
            OneTimeTask<String> task = Tasks.oneTime(name, String.class).execute((instance, context) -> work.accept(instance.getData()));
            tasks.add(task);
            oneTime.put(name, task);
            return this;
        }

        public JobRunner start() {
            // startTasks registers the recurring tasks itself; listing them twice is an error.
            var builder = Scheduler.create(database.dataSource(), tasks);
            if (database.isSqlite()) {
                builder.jdbcCustomization(new SqliteJdbcCustomization());
            }
            Scheduler scheduler = builder
                    .startTasks(recurring)
                    .threads(threads)
                    .pollingInterval(pollingInterval)
                    .enableImmediateExecution()
                    .shutdownMaxWait(Duration.ofSeconds(10))
                    .build();
            scheduler.start();
            return new JobRunner(scheduler, Map.copyOf(oneTime));
        }
    }
}
