package dev.scorecast.server.upload;

import java.sql.Connection;
import java.sql.SQLException;

/** Told when an upload has become a video, inside the transaction that records it (a webhook delivery commits with it). */
@FunctionalInterface
public interface UploadEvents {
    UploadEvents NONE = (connection, upload, video) -> {};

    void completed(Connection connection, Upload upload, Video video) throws SQLException;
}
