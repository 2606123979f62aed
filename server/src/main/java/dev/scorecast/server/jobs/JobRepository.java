package dev.scorecast.server.jobs;

import dev.scorecast.server.auth.Ids;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The jobs table. Lookups for clients always match the owner; workers look up by id alone. */
public final class JobRepository {
    private static final Logger LOG = LoggerFactory.getLogger(JobRepository.class);
    private final Database database;
    private final Clock clock;
    private final JobEvents events;

    public JobRepository(Database database, Clock clock) {
        this(database, clock, JobEvents.NONE);
    }

    /** {@code events} hears of every change, inside the transaction that writes it. */
    public JobRepository(Database database, Clock clock, JobEvents events) {
        this.database = database;
        this.clock = clock;
        this.events = events;
    }

    public void insert(Connection c, Job job) throws SQLException {
        Rows.update(
                c,
                """
                INSERT INTO jobs (id, owner, kind, subject_id, status, progress, message, error_code, error_field, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                job.id(),
                job.owner(),
                job.kind(),
                job.subjectId(),
                job.status().wire(),
                job.progress(),
                job.message(),
                job.errorCode(),
                job.errorField(),
                job.createdAt().toEpochMilli(),
                job.updatedAt().toEpochMilli());
    }

    public Optional<Job> find(Principal owner, String id) {
        return database.query(c ->
                Rows.one(c, "SELECT * FROM jobs WHERE id = ? AND owner = ?", JobRepository::job, id, owner.user()));
    }

    public Optional<Job> findForWorker(String id) {
        return database.query(c -> Rows.one(c, "SELECT * FROM jobs WHERE id = ?", JobRepository::job, id));
    }

    /** Ids of the jobs of {@code kind} still pending or processing: what a restarted server must queue again. */
    public List<String> unfinished(String kind) {
        return database.query(c -> Rows.list(
                c,
                "SELECT id FROM jobs WHERE kind = ? AND status IN (?, ?)",
                row -> row.getString("id"),
                kind,
                JobStatus.PENDING.wire(),
                JobStatus.PROCESSING.wire()));
    }

    /** Records the job's state; {@code stage} names the part of the work running now (shown by /sync/events). */
    public void progress(String id, JobStatus status, double progress, String stage, String message) {
        change(
                id,
                before -> new Change(status, progress, stage, message, null, null),
                "UPDATE jobs SET status = ?, progress = ?, stage = ?, message = ?, error_code = NULL, error_field = NULL, updated_at = ? WHERE id = ?",
                status.wire(),
                progress,
                stage,
                message);
    }

    /**
     * A running job's progress, which the client polls: a write that fails (the database away for a
     * moment) is logged and the run goes on; the next report, or the end, writes it again. Only the
     * ends ({@link #progress} to finished, {@link #fail}) must be written.
     */
    public void report(String id, double progress, String stage, String message) {
        try {
            progress(id, JobStatus.PROCESSING, progress, stage, message);
        } catch (Database.DatabaseException e) {
            LOG.warn("job {}: its progress was not written ({}); the run goes on", id, e.toString());
        }
    }

    /** One run of a job: the token it wrote when it started, which every write of the run requires. */
    public record Run(String jobId, String token) {}

    private static final String OPEN = "status IN ('pending', 'processing')";

    /**
     * Starts a run of job {@code id}: counts the start (past {@link #MAX_STARTS} the job ends
     * {@code too_many_attempts}), marks the job processing at {@code stage} with {@code message} and
     * writes the run's token, which replaces any earlier run's: from now on only this run may write to
     * the job. Empty when the job ended (or went) or was given up: the caller must not run it.
     */
    public Optional<Run> start(String id, String stage, String message) {
        Run run = new Run(id, Ids.next("run"));
        boolean open = database.transaction(c -> changeIn(
                c,
                id,
                OPEN,
                new Object[0],
                before -> new Change(JobStatus.PROCESSING, 0, stage, message, null, null),
                "UPDATE jobs SET starts = starts + 1, run_token = ?, status = ?, progress = 0, stage = ?, message = ?, error_code = NULL,"
                        + " error_field = NULL, updated_at = ? WHERE id = ? AND " + OPEN,
                run.token(),
                JobStatus.PROCESSING.wire(),
                stage,
                message));
        if (!open) {
            return Optional.empty();
        }
        int starts =
                database.query(c -> Rows.one(c, "SELECT starts FROM jobs WHERE id = ?", row -> row.getInt("starts"), id)
                        .orElse(0));
        if (starts > MAX_STARTS) {
            fail(
                    run,
                    "too_many_attempts",
                    null,
                    "This job was started " + (starts - 1) + " times and each run was cut off before"
                            + " it ended (its server stopped or crashed); it is ended here instead of being tried again. Start it again to retry.");
            return Optional.empty();
        }
        return Optional.of(run);
    }

    /**
     * The run's progress, which the client polls. A write the database fails (away for a moment) is
     * logged and the run goes on; a job that is no longer the run's ({@link Superseded}) stops it.
     */
    public void report(Run run, double progress, String stage, String message) {
        boolean written;
        try {
            written = database.transaction(c -> changeIn(
                    c,
                    run.jobId(),
                    "run_token = ? AND " + OPEN,
                    new Object[] {run.token()},
                    before -> new Change(JobStatus.PROCESSING, progress, stage, message, null, null),
                    "UPDATE jobs SET status = ?, progress = ?, stage = ?, message = ?, updated_at = ? WHERE id = ? AND run_token = ? AND "
                            + OPEN,
                    JobStatus.PROCESSING.wire(),
                    progress,
                    stage,
                    message));
        } catch (Database.DatabaseException e) {
            LOG.warn("job {}: its progress was not written ({}); the run goes on", run.jobId(), e.toString());
            return;
        }
        if (!written) {
            throw new Superseded(run);
        }
    }

    /** Ends the run's job {@code finished}, in the caller's transaction; {@link Superseded} (the transaction rolls back) if not its to end. */
    public void finish(Connection c, Run run, String stage, String message) throws SQLException {
        boolean written = changeIn(
                c,
                run.jobId(),
                "run_token = ? AND " + OPEN,
                new Object[] {run.token()},
                before -> new Change(JobStatus.FINISHED, 1, stage, message, null, null),
                "UPDATE jobs SET status = ?, progress = 1, stage = ?, message = ?, error_code = NULL, error_field = NULL, updated_at = ?"
                        + " WHERE id = ? AND run_token = ? AND " + OPEN,
                JobStatus.FINISHED.wire(),
                stage,
                message);
        if (!written) {
            throw new Superseded(run);
        }
    }

    /** Whether the job is still the run's to write. */
    public boolean current(Run run) {
        return database.query(c -> Rows.one(
                        c,
                        "SELECT 1 AS x FROM jobs WHERE id = ? AND run_token = ? AND " + OPEN,
                        row -> true,
                        run.jobId(),
                        run.token()))
                .isPresent();
    }

    /** Ends the run's job {@code error} (progress and stage where the failure found them); false, nothing written, when it is no longer the run's. */
    public boolean fail(Run run, String errorCode, String errorField, String message) {
        return database.transaction(c -> changeIn(
                c,
                run.jobId(),
                "run_token = ? AND " + OPEN,
                new Object[] {run.token()},
                before ->
                        new Change(JobStatus.ERROR, before.progress(), before.stage(), message, errorCode, errorField),
                "UPDATE jobs SET status = ?, message = ?, error_code = ?, error_field = ?, updated_at = ? WHERE id = ? AND run_token = ? AND "
                        + OPEN,
                JobStatus.ERROR.wire(),
                message,
                errorCode,
                errorField));
    }

    /**
     * {@link #change} for one run, in the caller's transaction: only when the row also matches
     * {@code condition} (its parameters {@code conditionParams}, which also follow the id in
     * {@code update}); false, nothing written and nobody told, when it does not.
     */
    private boolean changeIn(
            Connection c,
            String id,
            String condition,
            Object[] conditionParams,
            Function<Before, Change> next,
            String update,
            Object... params)
            throws SQLException {
        Object[] select = new Object[1 + conditionParams.length];
        select[0] = id;
        System.arraycopy(conditionParams, 0, select, 1, conditionParams.length);
        Optional<Before> before = Rows.one(
                c,
                "SELECT owner, kind, subject_id, status, progress, stage, created_at FROM jobs WHERE id = ? AND "
                        + condition,
                JobRepository::before,
                select);
        if (before.isEmpty()) {
            return false;
        }
        Instant now = clock.instant();
        Object[] all = new Object[params.length + 2 + conditionParams.length];
        System.arraycopy(params, 0, all, 0, params.length);
        all[params.length] = now.toEpochMilli();
        all[params.length + 1] = id;
        System.arraycopy(conditionParams, 0, all, params.length + 2, conditionParams.length);
        if (Rows.update(c, update, all) == 0) {
            return false;
        }
        Before was = before.get();
        Change after = next.apply(was);
        events.changed(c, change(id, was, after, now));
        return true;
    }

    /** The write of {@code after} over {@code was} to job {@code id} at {@code now}, as listeners are told it. */
    private static JobChange change(String id, Before was, Change after, Instant now) {
        return new JobChange(
                id,
                was.owner(),
                was.kind(),
                was.subjectId(),
                was.status(),
                was.progress(),
                was.stage(),
                after.status(),
                after.progress(),
                after.stage(),
                after.message(),
                after.errorCode(),
                after.errorField(),
                was.createdAt(),
                now);
    }

    private static Before before(ResultSet row) throws SQLException {
        return new Before(
                row.getString("owner"),
                row.getString("kind"),
                row.getString("subject_id"),
                JobStatus.fromWire(row.getString("status")),
                row.getDouble("progress"),
                row.getString("stage"),
                Instant.ofEpochMilli(row.getLong("created_at")));
    }

    /** Starts after which a job that never got to its end is given up: each of its runs was cut off. */
    public static final int MAX_STARTS = 5;

    /**
     * Counts a worker starting job {@code id} (in the database, so it survives restarts and holds
     * across nodes). Past {@link #MAX_STARTS} the job ends {@code error} ({@code too_many_attempts})
     * and this answers false: the caller must not run it. A job whose every run is cut off (a
     * video that crashes the node's decoder, a node killed again and again) would otherwise be
     * handed from worker to worker forever.
     */
    public boolean startOrGiveUp(String id) {
        int starts = database.query(c -> {
            Rows.update(c, "UPDATE jobs SET starts = starts + 1 WHERE id = ?", id);
            return Rows.one(c, "SELECT starts FROM jobs WHERE id = ?", row -> row.getInt("starts"), id)
                    .orElse(0);
        });
        if (starts <= MAX_STARTS) {
            return true;
        }
        fail(
                id,
                "too_many_attempts",
                null,
                "This job was started " + (starts - 1) + " times and each run was cut off before it"
                        + " ended (its server stopped or crashed); it is ended here instead of being tried again. Start it again to retry.");
        return false;
    }

    /** Ends the job in error; its progress and stage stay where the failure found them. */
    public void fail(String id, String errorCode, String errorField, String message) {
        change(
                id,
                before ->
                        new Change(JobStatus.ERROR, before.progress(), before.stage(), message, errorCode, errorField),
                "UPDATE jobs SET status = ?, message = ?, error_code = ?, error_field = ?, updated_at = ? WHERE id = ?",
                JobStatus.ERROR.wire(),
                message,
                errorCode,
                errorField);
    }

    /** The new state of one write, worked out from the row as it was. */
    private record Change(
            JobStatus status, double progress, String stage, String message, String errorCode, String errorField) {}

    private record Before(
            String owner,
            String kind,
            String subjectId,
            JobStatus status,
            double progress,
            String stage,
            Instant createdAt) {}

    /**
     * Reads the row, runs {@code update} (its parameters, then updated_at and the id) and tells the
     * listener, all in one transaction; a job that no longer exists is left alone.
     */
    private void change(String id, Function<Before, Change> next, String update, Object... params) {
        database.transaction(c -> {
            Optional<Before> before = Rows.one(
                    c,
                    "SELECT owner, kind, subject_id, status, progress, stage, created_at FROM jobs WHERE id = ?",
                    row -> new Before(
                            row.getString("owner"),
                            row.getString("kind"),
                            row.getString("subject_id"),
                            JobStatus.fromWire(row.getString("status")),
                            row.getDouble("progress"),
                            row.getString("stage"),
                            Instant.ofEpochMilli(row.getLong("created_at"))),
                    id);
            if (before.isEmpty()) {
                return null;
            }
            Instant now = clock.instant();
            Object[] all = Arrays.copyOf(params, params.length + 2);
            all[params.length] = now.toEpochMilli();
            all[params.length + 1] = id;
            Rows.update(c, update, all);
            Before was = before.get();
            Change after = next.apply(was);
            events.changed(c, change(id, was, after, now));
            return null;
        });
    }

    static Job job(ResultSet row) throws SQLException {
        return new Job(
                row.getString("id"),
                row.getString("owner"),
                row.getString("kind"),
                row.getString("subject_id"),
                JobStatus.fromWire(row.getString("status")),
                row.getDouble("progress"),
                row.getString("message"),
                row.getString("error_code"),
                row.getString("error_field"),
                Instant.ofEpochMilli(row.getLong("created_at")),
                Instant.ofEpochMilli(row.getLong("updated_at")));
    }
}
