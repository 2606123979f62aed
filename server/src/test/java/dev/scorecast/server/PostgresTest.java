package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scale-out database: the same migrations, keys, uploads and live-stream registry on
 * PostgreSQL, in a schema of its own ({@link PostgresSchema}).
 */
class PostgresTest {
    @TempDir
    Path data;

    @Test
    void uploadsWorkOnPostgres() throws Exception {
        inSchema(url -> {
            try (TestServer server = TestServer.start(data, Map.of("SCORECAST_DB_URL", url))) {
                Api.Response a = Uploads.uploadA(server.alice(), Videos.h264Aac(), "video/mp4", 3);
                assertEquals(200, a.status(), a::toString);
                Api.Response b = Uploads.uploadB(server.alice(), Videos.silentMp4(), 2);
                assertEquals(200, b.status(), b::toString);
                assertEquals(404, server.bob().get("/sync/upload_status?upload_id=" + a.body().get("upload_id").asText()).status());
                server.restart();
                assertEquals(200, server.alice().get("/sync/upload_status?upload_id=" + a.body().get("upload_id").asText()).status());
            }
        });
    }

    /** The stream registry's SQL (a partial unique index, INSERT ... ON CONFLICT) on PostgreSQL, with two nodes. */
    @Test
    void oneActiveStreamPerUserAcrossTwoNodesOnPostgres() throws Exception {
        inSchema(url -> {
            try (TestServer a = TestServer.start(data, Map.of("SCORECAST_DB_URL", url));
                 TestServer b = TestServer.start(data, Map.of("SCORECAST_DB_URL", url))) {
                Api aliceOnB = b.api(a.aliceKey);
                Api.Response created = a.alice().postJson("/player/create-stream", "");
                assertEquals(201, created.status(), created::toString);
                assertEquals(409, aliceOnB.postJson("/player/create-stream", "").status());
                Api.Response transport = aliceOnB.get("/player/transport");
                assertEquals(200, transport.status(), transport::toString);
                assertEquals(200, aliceOnB.postJson("/player/end_stream", "").status());
                assertEquals(404, a.alice().get("/player/transport").status());
                assertEquals(201, aliceOnB.postJson("/player/create-stream", "").status());
            }
        });
    }

    private static void inSchema(PostgresSchema.WithDatabase test) throws Exception {
        PostgresSchema.run(test);
    }
}
