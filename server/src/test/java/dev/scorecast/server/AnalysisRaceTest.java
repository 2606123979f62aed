package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.scorecast.engine.error.Unprocessable;
import dev.scorecast.server.analysis.AnalysisEngine;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 15, races: many requests at once to analyse one video start one analysis, on SQLite and on
 * PostgreSQL. Every caller is answered 200 with that analysis; none sees a 5xx.
 */
class AnalysisRaceTest {
    /** Below the 32 requests one user may have in progress, so that none is refused as busy. */
    static final int CALLERS = 24;
    /** Videos raced one after the other: one race may happen to line up; three in a row do not. */
    static final int ROUNDS = 3;

    @TempDir
    Path data;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"sqlite", "postgresql"})
    void concurrentStartsOfOneVideoMakeOneAnalysis(String database) throws Exception {
        // An api node runs no jobs: every analysis stays pending, so the rows counted are all there are.
        onDatabase(database, Map.of("SCORECAST_ROLE", "api"), env -> {
            try (TestServer server = TestServer.start(data, env)) {
                Api api = server.alice();
                for (int round = 0; round < ROUNDS; round++) {
                    String videoId = Uploads.uploadA(api, Videos.silentMp4(), "video/mp4", 1)
                            .body()
                            .get("video_id")
                            .asText();
                    List<Api.Response> answers = AtOnce.send(
                            CALLERS, () -> api.postJson("/sync/video_analysis", Map.of("video_id", videoId)));
                    JsonNode first = sameAnalysisForAll(answers);
                    assertEquals(
                            1,
                            server.count("SELECT COUNT(*) FROM analyses WHERE video_id = ?", videoId),
                            "analyses of the video");
                    assertEquals(
                            1,
                            server.count(
                                    "SELECT COUNT(*) FROM jobs WHERE kind = 'analysis' AND subject_id = ?", videoId),
                            "analysis jobs of the video");
                    assertEquals(
                            first.get("job_id").asText(),
                            api.postJson("/sync/video_analysis", Map.of("video_id", videoId))
                                    .body()
                                    .get("job_id")
                                    .asText(),
                            "asked again later: the same job");
                }
            }
        });
    }

    /**
     * A failed analysis may be started again: racing retries replace it with exactly one new
     * analysis, and the failed one stays on record beside it.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"sqlite", "postgresql"})
    void concurrentRetriesOfAFailedAnalysisMakeOneNewAnalysis(String database) throws Exception {
        var failing = new AtomicBoolean();
        var release = new CountDownLatch(1);
        // A first run fails; a retry's run waits until the test has counted, so it cannot fail too and invite a third.
        AnalysisEngine engine = (video, wav, facts, progress) -> {
            if (!failing.get()) {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            throw new Unprocessable(
                    "file", "No frame of the video could be decoded; re-encode it and upload it again.");
        };
        // A worker for each round's waiting retry, and one for the next round's failure.
        onDatabase(database, Map.of("SCORECAST_WORKERS", String.valueOf(ROUNDS + 1)), env -> {
            try (TestServer server = TestServer.start(data, env, engine)) {
                try {
                    Api api = server.alice();
                    for (int round = 0; round < ROUNDS; round++) {
                        String videoId = Uploads.uploadA(api, Videos.silentMp4(), "video/mp4", 1)
                                .body()
                                .get("video_id")
                                .asText();
                        failing.set(true);
                        Api.Response failed = api.postJson("/sync/video_analysis", Map.of("video_id", videoId));
                        assertEquals(
                                "error",
                                AnalysisFlowTest.awaitJob(
                                                api, failed.body().get("job_id").asText())
                                        .get("status")
                                        .asText());
                        failing.set(false);

                        JsonNode retry = sameAnalysisForAll(AtOnce.send(
                                CALLERS, () -> api.postJson("/sync/video_analysis", Map.of("video_id", videoId))));
                        assertNotEquals(
                                failed.body().get("analysis_id").asText(),
                                retry.get("analysis_id").asText(),
                                "a new analysis");
                        assertEquals(
                                2,
                                server.count("SELECT COUNT(*) FROM analyses WHERE video_id = ?", videoId),
                                "the failed analysis and one retry");
                        assertEquals(
                                2,
                                server.count(
                                        "SELECT COUNT(*) FROM jobs WHERE kind = 'analysis' AND subject_id = ?",
                                        videoId));
                    }
                } finally {
                    release.countDown();
                }
            }
        });
    }

    /** Every answer is a 200 naming the same analysis and job; returns the first. */
    static JsonNode sameAnalysisForAll(List<Api.Response> answers) {
        for (Api.Response answer : answers) {
            assertEquals(200, answer.status(), answer::toString);
        }
        Set<String> analyses =
                answers.stream().map(a -> a.body().get("analysis_id").asText()).collect(Collectors.toSet());
        Set<String> jobs =
                answers.stream().map(a -> a.body().get("job_id").asText()).collect(Collectors.toSet());
        assertEquals(1, analyses.size(), "analyses started: " + analyses);
        assertEquals(1, jobs.size(), "jobs started: " + jobs);
        return answers.getFirst().body();
    }

    private interface WithSettings {
        void run(Map<String, String> env) throws Exception;
    }

    /** Runs {@code test} with {@code env} on the server's own SQLite file or on a fresh PostgreSQL schema. */
    static void onDatabase(String database, Map<String, String> env, WithSettings test) throws Exception {
        if (database.equals("sqlite")) {
            test.run(env);
            return;
        }
        PostgresSchema.run(url -> {
            var withUrl = new HashMap<>(env);
            withUrl.put("SCORECAST_DB_URL", url);
            test.run(withUrl);
        });
    }
}
