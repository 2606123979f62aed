package dev.scorecast.server.jobs;

import dev.scorecast.engine.core.Ticker;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The periodic sweeps (expired uploads, retention, orphans, ended streams) on a thread of their own,
 * on the injected clock: they run on time whatever the job queue holds. (They were db-scheduler
 * recurring tasks, which wait for a free worker thread and come after every queued job by priority,
 * so a sustained backlog starved them; issue 28.) One node at a time runs each sweep: a node claims
 * it in the {@code upkeep} table by moving its next due time on in one conditional update, and the
 * sweeps are safe to repeat, so a node dying mid-sweep costs at most one period.
 */
public final class Upkeep implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Upkeep.class);
    /** How often the thread looks for a sweep that fell due. */
    static final Duration TICK = Duration.ofSeconds(1);

    /** One sweep: its name (its row), how often it runs, and its work. */
    public record Sweep(String name, Duration period, Runnable work) {}

    private final Database database;
    private final Clock clock;
    private final String nodeId;
    private final List<Sweep> sweeps;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "scorecast-upkeep");
        t.setDaemon(true);
        return t;
    });

    public Upkeep(Database database, Clock clock, String nodeId, List<Sweep> sweeps) {
        this.database = database;
        this.clock = clock;
        this.nodeId = nodeId;
        this.sweeps = List.copyOf(sweeps);
    }

    /** Starts the thread; each sweep first falls due one period after it was first registered in the database. */
    public void start() {
        long now = clock.millis();
        for (Sweep sweep : sweeps) {
            database.query(c -> Rows.update(
                    c,
                    "INSERT INTO upkeep (name, due_at, holder, ran_at) VALUES (?, ?, NULL, NULL)"
                            + " ON CONFLICT (name) DO NOTHING",
                    sweep.name(),
                    now + sweep.period().toMillis()));
        }
        thread.scheduleWithFixedDelay(this::tick, TICK.toMillis(), TICK.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Runs every sweep that is due and that this node claims. */
    void tick() {
        for (Sweep sweep : sweeps) {
            try {
                if (claim(sweep)) {
                    long started = Ticker.SYSTEM.nanos();
                    sweep.work().run();
                    LOG.debug(
                            "upkeep {} ran in {} ms",
                            sweep.name(),
                            Ticker.SYSTEM.since(started).toMillis());
                }
            } catch (RuntimeException e) {
                LOG.warn("upkeep {} failed; it runs again at its next turn", sweep.name(), e);
            }
        }
    }

    /** Takes the sweep's turn if it is due and no other node took it first. */
    private boolean claim(Sweep sweep) {
        long now = clock.millis();
        return database.query(c -> Rows.update(
                        c,
                        "UPDATE upkeep SET due_at = ?, holder = ?, ran_at = ? WHERE name = ? AND due_at <= ?",
                        now + sweep.period().toMillis(),
                        nodeId,
                        now,
                        sweep.name(),
                        now))
                == 1;
    }

    /** The names of the sweeps, for the metrics and tests. */
    public List<String> names() {
        List<String> names = new ArrayList<>();
        sweeps.forEach(s -> names.add(s.name()));
        return names;
    }

    @Override
    public void close() {
        thread.shutdownNow();
        try {
            thread.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
