package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.scorecast.server.auth.Principal;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scale-out (DESIGN.md §2): two server nodes in one JVM, on their own ports, sharing one data
 * directory and SQLite database. A stream lives on the node that created it; every player call
 * works on either node and acts on that one stream.
 *
 * <p>Tagged slow (bin/test --all, CI): two nodes with live streams, 15 s, as ScaleOutTest's fleet is.
 */
@Tag("slow")
class PlayerScaleOutTest {
    private static final Principal ALICE = new Principal("alice");

    @TempDir
    Path data;

    @TempDir
    Path work;

    @Test
    void callsOnEitherNodeActOnTheStreamWhereItPlays() throws Exception {
        try (TestServer a = TestServer.start(data);
                TestServer b = TestServer.start(data)) {
            Api aliceOnA = a.alice();
            Api aliceOnB = b.api(a.aliceKey);
            Api.Response created = aliceOnA.postJson("/player/create-stream", "");
            assertEquals(201, created.status(), created::toString);
            String id = created.body().get("stream_id").asText();
            String token = created.body().get("session_token").asText();

            Api.Response second = aliceOnB.postJson("/player/create-stream", "");
            assertEquals(409, second.status(), "one active stream per user, whichever node is asked: " + second);
            assertEquals(id, second.body().get("stream_id").asText());
            JsonNode live = aliceOnB.get("/player/liveliness").body();
            assertEquals("active", live.get("stream").asText());
            assertEquals(id, live.get("stream_id").asText());

            // A session token works on either node.
            Api tokenOnB = b.api(token);
            Api.Response started = tokenOnB.postJson("/player/start", Map.of("experience_id", "house-rooftop"));
            assertEquals(200, started.status(), started::toString);
            assertTrue(started.body().get("playing").asBoolean());
            assertEquals(200, a.api(token).get("/player/transport").status());
            assertEquals(1, a.server.player().streams(), "the stream plays on the node that created it");
            assertEquals(0, b.server.player().streams(), "and nowhere else");

            // The signed stream_url, sent to B instead of A (as a load balancer might).
            URI link = URI.create(created.body().get("stream_url").asText());
            try (LiveAudio audio = LiveAudio.open(base(b) + link.getRawPath() + "?" + link.getRawQuery(), null)) {
                assertEquals(200, audio.response.statusCode());
                assertEquals(
                        "audio/aac",
                        audio.response.headers().firstValue("Content-Type").orElse(""));
                assertTrue(audio.firstFrame() >= 0, "the audio's first frame is relayed");
                audio.awaitBytes(1, 3);
                assertTrue(audio.size() > 0, "audio flows through B");

                Api.Response intensity = aliceOnB.postJson("/player/set_intensity", Map.of("intensity", 1.0));
                assertEquals(200, intensity.status(), intensity::toString);
                assertEquals(1.2, intensity.body().get("relative_tempo").asDouble(), 1e-9);
                assertTrue(
                        await(3, () -> tempo(aliceOnB) >= 124 * 1.2 - 0.01),
                        "B's transport shows the tempo set through B");
                assertEquals(124 * 1.2, tempo(aliceOnA), 0.01, "and it is A's stream that changed");

                JsonNode current = aliceOnB.get("/player/current_experience").body();
                assertEquals(id, current.get("stream_id").asText());
                assertEquals(1.0, current.get("intensity").asDouble());
                Api.Response replaced = tokenOnB.postJson("/player/replace_plan", Map.of("plan", current.get("plan")));
                assertEquals(200, replaced.status(), replaced::toString);
                assertTrue(replaced.body().get("applies_at").has("bar"), replaced::toString);
                Api.Response vocals = aliceOnB.postJson("/player/toggle_vocals", Map.of("vocals", false));
                assertEquals(200, vocals.status(), vocals::toString);
                assertFalse(vocals.body().get("vocals").asBoolean());
                double ttl =
                        aliceOnB.get("/player/stream_ttl").body().get("ttl").asDouble();
                assertTrue(ttl > 890 && ttl <= 900, "ttl " + ttl);

                audio.awaitBytes(40_000, 6); // about 2.5 s of AAC at 128 kb/s
                float[] mono = LiveAudio.decode(audio.bytes(), work);
                double rms = LiveAudio.rms(mono, 0, mono.length);
                System.out.printf(
                        "scale-out: %.1f s of audio relayed through B, rms %.3f%n",
                        mono.length / (double) LiveAudio.RATE, rms);
                assertTrue(
                        mono.length >= 2 * LiveAudio.RATE, "decoded " + mono.length / (double) LiveAudio.RATE + " s");
                assertTrue(rms > 0.01, "the relayed stream is not silent: rms " + rms);
            }
            assertTrue(
                    await(
                            3,
                            () -> a.server
                                            .player()
                                            .find(ALICE)
                                            .orElseThrow()
                                            .session()
                                            .listeners()
                                    == 0),
                    "the listener B relayed to is gone from A once its client left");

            System.out.printf(
                    "scale-out: GET /player/transport median %.2f ms on the owner, %.2f ms forwarded%n",
                    medianMillis(aliceOnA), medianMillis(aliceOnB));

            Api.Response stopped = aliceOnB.postJson("/player/stop", "");
            assertEquals(200, stopped.status(), stopped::toString);
            assertTrue(
                    await(
                            3,
                            () -> !aliceOnA.get("/player/transport")
                                    .body()
                                    .get("playing")
                                    .asBoolean()),
                    "stopped through B");

            Api bobOnB = b.bob();
            assertEquals(404, bobOnB.get("/player/transport").status(), "another user's stream does not exist for bob");
            assertEquals(
                    "none",
                    bobOnB.get("/player/liveliness").body().get("stream").asText());

            try (LiveAudio listener = LiveAudio.open(base(b) + "/player/stream?format=wav", token)) {
                listener.awaitBytes(44, 3);
                Api.Response ended = aliceOnB.postJson("/player/end_stream", "");
                assertEquals(200, ended.status(), ended::toString);
                assertEquals(id, ended.body().get("stream_id").asText());
                assertTrue(listener.awaitEnd(3), "ending the stream ends the audio relayed through B");
            }
            assertEquals(0, a.server.player().streams(), "ending through B ended it on A");
            assertEquals(404, aliceOnA.get("/player/transport").status());
            assertEquals(
                    "none",
                    aliceOnA.get("/player/liveliness").body().get("stream").asText());
            assertEquals(
                    401, a.api(token).get("/player/transport").status(), "the ended stream's token is refused on A");
            assertEquals(401, tokenOnB.get("/player/transport").status(), "and on B");

            Api.Response again = aliceOnB.postJson("/player/create-stream", "");
            assertEquals(201, again.status(), again::toString);
            assertEquals(1, b.server.player().streams());
            assertEquals(200, aliceOnA.get("/player/transport").status(), "now A forwards to B");

            // B stops: its streams end with it, and A says so at once.
            b.close();
            long before = System.nanoTime();
            Api.Response gone = aliceOnA.get("/player/transport");
            double seconds = (System.nanoTime() - before) / 1e9;
            assertEquals(404, gone.status(), gone::toString);
            assertTrue(seconds < 1, "answered in " + seconds + " s");
            assertEquals(201, aliceOnA.postJson("/player/create-stream", "").status());
        }
    }

    @Test
    void aStreamWhoseNodeNoLongerAnswersHasEnded() throws Exception {
        // Node C tells the others to reach it on a port nothing listens on: to them, C has crashed.
        String nowhere = "http://127.0.0.1:" + freePort();
        try (TestServer a = TestServer.start(data);
                TestServer c = TestServer.start(data, Map.of("SCORECAST_NODE_URL", nowhere))) {
            assertEquals(nowhere, c.server.nodeUrl());
            assertEquals(
                    201, c.api(a.aliceKey).postJson("/player/create-stream", "").status());
            long before = System.nanoTime();
            Api.Response r = a.alice().postJson("/player/set_intensity", Map.of("intensity", 0.7));
            double seconds = (System.nanoTime() - before) / 1e9;
            System.out.printf("scale-out: unreachable owner answered in %.3f s: %s%n", seconds, r);
            assertEquals(404, r.status(), r::toString);
            assertEquals("not_found", r.body().get("error").asText());
            assertTrue(r.body().get("message").asText().contains("no longer answers"), r::toString);
            assertTrue(seconds < 2, "answered in " + seconds + " s");
            assertEquals(
                    404, a.alice().get("/player/transport").status(), "the stream is marked ended, not tried again");
            assertTrue(
                    await(3, () -> c.server.player().streams() == 0),
                    "C, still running, drops the stream the others ended");
            assertEquals(201, a.alice().postJson("/player/create-stream", "").status());

            // create-stream itself finds the owner gone and goes ahead.
            assertEquals(
                    201, c.api(a.bobKey).postJson("/player/create-stream", "").status());
            Api.Response bobOnA = a.bob().postJson("/player/create-stream", "");
            assertEquals(201, bobOnA.status(), bobOnA::toString);
            assertEquals(
                    "active",
                    a.bob().get("/player/liveliness").body().get("stream").asText());
        }
    }

    @Test
    void createsRacingOnBothNodesMakeOneStreamAndExpiryFreesTheUser() throws Exception {
        Map<String, String> shortTtl = Map.of("SCORECAST_STREAM_TTL_SECONDS", "2");
        try (TestServer a = TestServer.start(data, shortTtl);
                TestServer b = TestServer.start(data, shortTtl);
                ExecutorService callers = Executors.newFixedThreadPool(8)) {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> statuses = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                Api api = (i % 2 == 0 ? a : b).api(a.aliceKey);
                statuses.add(callers.submit(() -> {
                    go.await();
                    return api.postJson("/player/create-stream", "").status();
                }));
            }
            go.countDown();
            List<Integer> answered = new ArrayList<>();
            for (Future<Integer> f : statuses) {
                answered.add(f.get());
            }
            assertEquals(1, answered.stream().filter(s -> s == 201).count(), "one create wins: " + answered);
            assertEquals(
                    7,
                    answered.stream().filter(s -> s == 409).count(),
                    "the others are told the user has a stream: " + answered);

            TestServer owner = a.server.player().streams() == 1 ? a : b;
            TestServer other = owner == a ? b : a;
            assertTrue(await(6, () -> owner.server.player().streams() == 0), "the stream expired on its node");
            Api.Response created = other.api(a.aliceKey).postJson("/player/create-stream", "");
            assertEquals(201, created.status(), "expiry freed the user on every node: " + created);
        }
    }

    @Test
    void aNodeStartingAtTheSameUrlEndsTheStreamsItsEarlierRunPlayed() throws Exception {
        // The earlier run is left running without its port: it stands for a process that died without ending its
        // streams.
        String url = "http://127.0.0.1:" + freePort();
        try (TestServer earlier = TestServer.start(data, Map.of("SCORECAST_NODE_URL", url))) {
            String id = earlier.alice()
                    .postJson("/player/create-stream", "")
                    .body()
                    .get("stream_id")
                    .asText();
            try (TestServer later = TestServer.start(data, Map.of("SCORECAST_NODE_URL", url))) {
                try (var db = DriverManager.getConnection("jdbc:sqlite:" + data.resolve("scorecast.db"));
                        var row = db.prepareStatement("SELECT end_reason FROM live_streams WHERE id = ?")) {
                    row.setString(1, id);
                    var result = row.executeQuery();
                    assertTrue(result.next());
                    assertEquals("node_restarted", result.getString("end_reason"));
                }
                assertEquals(
                        "none",
                        later.api(earlier.aliceKey)
                                .get("/player/liveliness")
                                .body()
                                .get("stream")
                                .asText());
                assertEquals(
                        201,
                        later.api(earlier.aliceKey)
                                .postJson("/player/create-stream", "")
                                .status());
            }
        }
    }

    private static double tempo(Api api) {
        Api.Response r = api.get("/player/transport");
        assertEquals(200, r.status(), r::toString);
        return r.body().get("tempo").asDouble();
    }

    /** The median time of a transport call, for the record of what forwarding costs. */
    private static double medianMillis(Api api) {
        double[] times = new double[21];
        for (int i = 0; i < times.length; i++) {
            long start = System.nanoTime();
            tempo(api);
            times[i] = (System.nanoTime() - start) / 1e6;
        }
        Arrays.sort(times);
        return times[times.length / 2];
    }

    private static String base(TestServer node) {
        return "http://127.0.0.1:" + node.server.port();
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Whether {@code condition} held within {@code seconds}. */
    private static boolean await(double seconds, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }
}
