package dev.scorecast.server.jobs;

import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Whose turn it is on a worker. The queue's priorities put every user's first job before anyone's
 * second, but only among jobs waiting: once a user's two long jobs hold a node's two workers, a user
 * who comes a minute later waits for one of them to end (an hour, for a long video). So a job whose
 * owner already runs one starts only when no other user's job waits and a worker of this node stays
 * free after it, kept for whoever comes next; otherwise it waits ({@link NotYourTurn}) and is asked
 * again shortly. A user alone on a node still gets all but one of its workers.
 */
final class JobTurns {
    private final Database database;
    /**
     * Jobs started on this node and not ended: a run marks its job {@code processing} only once it is
     * under way, so two workers deciding at once would each miss the other in the table.
     */
    private final Set<String> startedHere = new HashSet<>();

    JobTurns(Database database) {
        this.database = database;
    }

    /** Thrown by a run that is not to start yet: the runner puts it back without counting a failure. */
    static final class NotYourTurn extends RuntimeException {
        NotYourTurn(String jobId) {
            super(
                    "job " + jobId + " waits: its owner runs another job and the worker is kept for other users",
                    null,
                    false,
                    false);
        }
    }

    /**
     * Whether job {@code jobId} may start on this node, with {@code busy} of its {@code threads}
     * workers running other jobs. A job the table does not know (a task of no user) always may.
     */
    synchronized boolean mayStart(String jobId, int busy, int threads) {
        boolean may = database.query(c -> {
            Optional<String> owner =
                    Rows.one(c, "SELECT owner FROM jobs WHERE id = ?", row -> row.getString("owner"), jobId);
            if (owner.isEmpty()) {
                return true;
            }
            var others = Rows.list(
                    c,
                    "SELECT id, status FROM jobs WHERE owner = ? AND status IN ('pending', 'processing') AND id <> ?",
                    row -> new String[] {row.getString("id"), row.getString("status")},
                    owner.get(),
                    jobId);
            boolean runsAnother =
                    others.stream().anyMatch(o -> o[1].equals("processing") || startedHere.contains(o[0]));
            if (!runsAnother) {
                return true;
            }
            boolean othersWait = Rows.one(
                            c,
                            "SELECT id FROM jobs WHERE status = 'pending' AND owner <> ? LIMIT 1",
                            row -> row.getString("id"),
                            owner.get())
                    .isPresent();
            return !othersWait && busy + 1 < threads;
        });
        if (may) {
            startedHere.add(jobId);
        }
        return may;
    }

    /** The run of {@code jobId} on this node is over. */
    synchronized void ended(String jobId) {
        startedHere.remove(jobId);
    }
}
