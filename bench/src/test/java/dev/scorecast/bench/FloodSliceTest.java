package dev.scorecast.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The seed-fixed slice of `scorecast bench flood` in the suite: the packaged server, 4 streams
 * playing and steered every 3 s, then 32 set_intensity calls kept in flight on a fifth for 5 s. No
 * other stream may underrun, no section play without its notes, no call be a 5xx, and the flooded
 * stream must end at its last call's intensity. The 30 s flood beside 24 streams is the campaign
 * itself (docs/RELIABILITY.md has its figures).
 */
@Tag("slow")
class FloodSliceTest {
    @Test
    void aFloodOfIntensityCallsOnOneStreamLeavesTheOthersWhole() throws Exception {
        Path repository = Path.of("..").toAbsolutePath().normalize();
        assertTrue(
                Files.isRegularFile(repository.resolve("server/target/scorecast-server.jar")),
                "the server jar is built before this module's tests (mvn install builds it)");
        FloodBenchmark.Result result =
                FloodBenchmark.campaign(repository, new FloodBenchmark.Options(4, 5, 32, 20261127));
        System.out.println(result.line());
        assertEquals(List.of(), result.problems(), result.line());
        assertTrue(result.floodCalls() >= 32, "the flood ran: " + result.line());
    }
}
