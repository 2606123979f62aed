package dev.scorecast.server.jobs;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Told of every change of a job's state, on the connection and inside the transaction that writes
 * it: what a listener writes there (a webhook delivery) commits or rolls back with the change, so a
 * crash between the two cannot lose it.
 */
@FunctionalInterface
public interface JobEvents {
    JobEvents NONE = (connection, change) -> {};

    void changed(Connection connection, JobChange change) throws SQLException;
}
