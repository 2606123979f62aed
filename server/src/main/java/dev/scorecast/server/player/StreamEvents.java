package dev.scorecast.server.player;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;

/** Told when a live stream ends, whoever ends it, inside the transaction that records the end. */
@FunctionalInterface
public interface StreamEvents {
    StreamEvents NONE = (connection, streamId, owner, reason, at) -> {};

    void ended(Connection connection, String streamId, String owner, String reason, Instant at) throws SQLException;
}
