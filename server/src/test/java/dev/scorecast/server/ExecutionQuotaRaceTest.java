package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.scorecast.server.execution.ExecutionService;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15, races: the ten executions a user may have pending or running hold when their requests
 * race on PostgreSQL, where two transactions counting at once would each miss the other's insert.
 */
class ExecutionQuotaRaceTest {
    /** More than twice the quota, below the 32 requests one user may have in progress. */
    static final int CALLERS = 24;
    /** Races one after the other: one may happen to run in single file; eight in a row do not. */
    static final int ROUNDS = 8;

    @TempDir
    Path data;

    @Test
    void racingExecutionsStopAtTheQuotaOnPostgres() throws Exception {
        PostgresSchema.run(url -> {
            String planId;
            try (TestServer worker = TestServer.start(data, Map.of("SCORECAST_DB_URL", url))) {
                planId = ExecutionLimitsTest.plan(worker.alice());
            }
            // An api node runs no jobs: every execution started stays pending and counts against the quota.
            try (TestServer server = TestServer.start(data, Map.of("SCORECAST_DB_URL", url, "SCORECAST_ROLE", "api"))) {
                Api api = server.alice();
                for (int round = 0; round < ROUNDS; round++) {
                    List<Api.Response> answers =
                            AtOnce.send(CALLERS, () -> api.postJson("/sync/execute", Map.of("plan_id", planId)));
                    long started =
                            answers.stream().filter(a -> a.status() == 200).count();
                    for (Api.Response answer : answers) {
                        if (answer.status() != 200) {
                            UploadErrorsTest.assertError(answer, 429, "busy", null);
                        }
                    }
                    assertEquals(
                            ExecutionService.MAX_ACTIVE_PER_USER, started, "executions accepted in round " + round);
                    assertEquals(
                            ExecutionService.MAX_ACTIVE_PER_USER,
                            server.count(
                                    "SELECT COUNT(*) FROM jobs WHERE owner = 'alice' AND kind = 'execution' AND status = 'pending'"),
                            "execution jobs stored in round " + round);
                    // As if a worker had run them: the next round starts with the whole quota free.
                    server.update(
                            "UPDATE jobs SET status = 'finished', progress = 1 WHERE kind = 'execution' AND status = 'pending'");
                }
            }
        });
    }
}
