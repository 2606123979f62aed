package dev.scorecast.server.jobs;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import dev.scorecast.server.db.Database;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The one adapter over db-scheduler. Jobs live in the metadata database, so any process on the
 * same database can run them, and a job whose worker died is picked up again after its heartbeat
 * stops. Stages register their tasks here; nothing else imports the library.
 */
public final class JobRunner implements AutoCloseable {
    private final Scheduler scheduler;

    private JobRunner(Scheduler scheduler) {
        this.scheduler = scheduler;
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
            return new JobRunner(scheduler);
        }
    }
}
