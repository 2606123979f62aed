package dev.scorecast.server.upload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.error.NotFound;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.config.ServerConfig;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.storage.LocalBlobStore;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Unfinished uploads nobody touches expire; every chunk renews the deadline. */
class UploadExpiryTest {
    @TempDir
    Path data;

    /** A clock the test moves by hand. */
    static final class ManualClock extends Clock {
        Instant now = Instant.parse("2026-11-22T08:00:00Z");

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    @Test
    void untouchedUploadsExpireAndTheirFilesGo() {
        var config = ServerConfig.from(Map.of("SCORECAST_DATA", data.toString(), "SCORECAST_UPLOAD_TTL_HOURS", "2"));
        var clock = new ManualClock();
        var owner = new Principal("alice");
        try (Database database = Database.open(config.dbUrl())) {
            var uploads = new UploadService(database, new LocalBlobStore(data.resolve("files")), config.uploads(),
                    new dev.scorecast.server.quota.QuotaGuard(dev.scorecast.server.config.Quotas.DEFAULT, data), clock);
            Upload stale = uploads.initialize(owner, Variant.B, "a.mp4", null, null);
            Upload fresh = uploads.initialize(owner, Variant.B, "b.mp4", null, null);
            byte[] bytes = {1, 2, 3, 4};
            uploads.putChunk(owner, Variant.B, stale.id(), new IncomingChunk(0, 2, null, null, 4L, new ByteArrayInputStream(bytes)));
            Path staleDir = data.resolve("files/uploads/" + stale.id());
            assertTrue(Files.isDirectory(staleDir));

            clock.now = clock.now.plus(Duration.ofMinutes(90));
            uploads.putChunk(owner, Variant.B, fresh.id(), new IncomingChunk(0, 2, null, null, 4L, new ByteArrayInputStream(bytes)));
            assertEquals(0, uploads.removeExpired(), "nothing is older than two hours yet");

            clock.now = clock.now.plus(Duration.ofMinutes(40));
            assertEquals(1, uploads.removeExpired(), "the stale upload is 130 minutes old, the fresh one 40");
            assertThrows(NotFound.class, () -> uploads.progress(owner, Variant.B, stale.id()));
            assertFalse(Files.exists(staleDir));
            assertEquals(1, uploads.progress(owner, Variant.B, fresh.id()).chunks().size());
            uploads.close();
        }
    }
}
