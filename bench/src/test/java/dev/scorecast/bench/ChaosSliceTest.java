package dev.scorecast.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The seed-fixed slice of `scorecast bench chaos` in the suite: the packaged server as an api and a
 * worker node on a PostgreSQL and an S3Proxy of the test's own, a user uploading, analysing and
 * executing and a listener hearing a live stream, while PostgreSQL is stopped with
 * {@code -m immediate} (no checkpoint: crash recovery at the next start) and started again. Every
 * job must end, no answer be a 500, every 503 carry Retry-After, the store hold exactly what the
 * rows name, and the listener hear the stream after the fault.
 *
 * <p>Tagged slow (bin/test --all, CI): a fault campaign on real processes, 37 s; CapacityModelTest is the
 * bench package's fast test.
 */
@Tag("slow")
class ChaosSliceTest {
    @Test
    void anImmediatePostgresRestartMidWorkLosesNothing() throws Exception {
        Path repository = Path.of("..").toAbsolutePath().normalize();
        assertTrue(
                Files.isRegularFile(repository.resolve("server/target/scorecast-server.jar")),
                "the server jar is built before this module's tests (mvn install builds it)");
        var options = new ChaosBenchmark.Options(List.of("pg-restart-immediate"), 20261127, 1, 5, 5, 120);
        ChaosBenchmark.Result result = ChaosBenchmark.campaign(repository, "pg-restart-immediate", options);
        System.out.println(result.line());
        assertEquals(List.of(), result.problems(), result.line());
        assertTrue(result.jobs() >= 2, "an analysis and an execution at least: " + result.line());
    }
}
