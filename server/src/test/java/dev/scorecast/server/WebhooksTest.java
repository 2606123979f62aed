package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.scorecast.server.webhooks.Backoff;
import dev.scorecast.server.webhooks.Receiver;
import dev.scorecast.server.webhooks.WebhookSigner;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Webhooks through HTTP on a real server, delivered to a real receiver on 127.0.0.1 (local delivery
 * allowed, as for development): registration and its refusals, ownership, signed deliveries,
 * retries with backoff on virtual time until they are given up, redelivery, delivery after a
 * restart, and the refusal of loopback, private and metadata addresses when local delivery is off.
 */
class WebhooksTest {
    /** How long a wait for a delivery may take: only a guard against a hang (the dispatcher looks every 50 ms). */
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    /**
     * Settings for a development server whose dispatcher looks at the queue often (tests wait less). The answer limit is
     * the longest allowed, only a guard against a hang: no test here is about it (SenderTest is), and an attempt cut off
     * by it on a loaded machine (it was 2 s of real time) would wait for a retry that these tests' clocks never reach.
     */
    private static final Map<String, String> LOCAL = Map.of(
            "SCORECAST_WEBHOOKS_ALLOW_LOCAL",
            "true",
            "SCORECAST_WEBHOOKS_POLL_MS",
            "50",
            "SCORECAST_WEBHOOKS_TIMEOUT_MS",
            "60000");

    @TempDir
    Path data;

    static JsonNode register(Api api, String url, List<String> events) {
        Map<String, Object> body = events == null ? Map.of("url", url) : Map.of("url", url, "events", events);
        Api.Response r = api.postJson("/webhooks", body);
        assertEquals(201, r.status(), r::toString);
        return r.body();
    }

    /** The delivery {@code deliveryId} as GET .../deliveries lists it, once {@code until} holds (polled, with a deadline). */
    static JsonNode awaitDelivery(Api api, String webhookId, String deliveryId, Predicate<JsonNode> until)
            throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            Api.Response r = api.get("/webhooks/" + webhookId + "/deliveries?limit=100");
            assertEquals(200, r.status(), r::toString);
            for (JsonNode d : r.body().get("deliveries")) {
                if (d.get("delivery_id").asText().equals(deliveryId)) {
                    last = d;
                    if (until.test(d)) {
                        return d;
                    }
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("delivery " + deliveryId + " did not get there: " + last);
    }

    @Test
    void endpointsAreRegisteredListedAndDeletedOnlyByTheirOwner() {
        try (TestServer server = TestServer.start(
                data, Map.of("SCORECAST_WEBHOOKS_ALLOW_LOCAL", "true", "SCORECAST_WEBHOOKS_MAX_PER_USER", "3"))) {
            Api alice = server.alice();
            Api bob = server.bob();
            JsonNode created = register(alice, "http://127.0.0.1:9/hooks?a=1", null);
            String id = created.get("webhook_id").asText();
            assertTrue(created.get("secret").asText().matches("whsec_[a-z2-7]{32}"), created::toString);
            assertEquals(
                    List.of(
                            "upload.completed",
                            "analysis.finished",
                            "analysis.failed",
                            "execution.finished",
                            "execution.failed",
                            "stream.ended"),
                    texts(created.get("events")),
                    "every type but the opt-in progress by default");

            JsonNode listed = alice.get("/webhooks").body();
            assertEquals(1, listed.get("webhooks").size());
            assertEquals(id, listed.at("/webhooks/0/webhook_id").asText());
            assertFalse(listed.toString().contains(created.get("secret").asText()), "the secret is shown once");
            assertEquals(3, listed.get("limit").asInt());

            // Bob sees none of it, and alice's ids are not found for him.
            assertEquals(0, bob.get("/webhooks").body().get("webhooks").size());
            assertEquals(404, bob.postJson("/webhooks/" + id + "/test", "").status());
            assertEquals(404, bob.get("/webhooks/" + id + "/deliveries").status());
            Api.Response bobDelete = bob.delete("/webhooks/" + id);
            assertEquals(404, bobDelete.status());
            assertEquals("webhook_id", bobDelete.body().get("field").asText());
            String delivery = alice.postJson("/webhooks/" + id + "/test", "")
                    .body()
                    .get("delivery_id")
                    .asText();
            assertEquals(
                    404,
                    bob.postJson("/webhooks/" + id + "/deliveries/" + delivery + "/redeliver", "")
                            .status());

            // Bad input: every problem named.
            Api.Response bad = alice.postJson(
                    "/webhooks",
                    Map.of("url", "ftp://example.com/", "events", List.of("execution.finished", "job.done", 7)));
            assertEquals(400, bad.status(), bad::toString);
            List<String> fields = new ArrayList<>();
            bad.body().get("problems").forEach(p -> fields.add(p.get("field").asText()));
            assertEquals(List.of("events[1]", "events[2]"), fields, bad::toString);
            Api.Response badUrl = alice.postJson("/webhooks", Map.of("url", "ftp://example.com/"));
            assertEquals("url", badUrl.body().get("field").asText(), badUrl::toString);
            assertEquals(
                    "events",
                    alice.postJson("/webhooks", Map.of("url", "http://127.0.0.1:9/", "events", List.of()))
                            .body()
                            .get("field")
                            .asText());
            assertEquals(
                    "url",
                    alice.postJson("/webhooks", Map.of("events", List.of("stream.ended")))
                            .body()
                            .get("field")
                            .asText());
            assertEquals(
                    "url",
                    alice.postJson("/webhooks", Map.of("url", "http://user:pw@127.0.0.1:9/"))
                            .body()
                            .get("field")
                            .asText());
            assertEquals(
                    "limit",
                    alice.get("/webhooks/" + id + "/deliveries?limit=1000")
                            .body()
                            .get("field")
                            .asText());

            // At most three endpoints for a user; deleting one makes room.
            register(alice, "http://127.0.0.1:9/b", List.of("execution.progress"));
            register(alice, "http://localhost:9/c", List.of("stream.ended"));
            Api.Response fourth = alice.postJson("/webhooks", Map.of("url", "http://127.0.0.1:9/d"));
            assertEquals(409, fourth.status(), fourth::toString);
            assertEquals(200, alice.delete("/webhooks/" + id).status());
            assertEquals(404, alice.get("/webhooks/" + id + "/deliveries").status(), "its deliveries went with it");
            assertEquals(
                    201,
                    alice.postJson("/webhooks", Map.of("url", "http://127.0.0.1:9/d"))
                            .status());
        }
    }

    @Test
    void aTestEventArrivesSignedAndItsDeliveryShowsTheAnswer() throws Exception {
        try (Receiver receiver = Receiver.start().answer(200);
                TestServer server = TestServer.start(data, LOCAL)) {
            Api alice = server.alice();
            JsonNode hook = register(alice, receiver.url("/hook"), List.of("stream.ended"));
            Api.Response test =
                    alice.postJson("/webhooks/" + hook.get("webhook_id").asText() + "/test", "");
            assertEquals(202, test.status(), test::toString);
            assertEquals("pending", test.body().get("state").asText());

            Receiver.Received got = receiver.next(PATIENCE);
            String secret = hook.get("secret").asText();
            assertTrue(
                    WebhookSigner.verify(
                            secret,
                            got.header("Scorecast-Signature"),
                            got.body(),
                            Instant.now(),
                            WebhookSigner.TOLERANCE),
                    got.header("Scorecast-Signature"));
            JsonNode event = Api.JSON.readTree(got.body());
            assertEquals("webhook.test", event.get("type").asText());
            assertEquals(test.body().get("event_id").asText(), event.get("id").asText());
            assertEquals(got.header("Scorecast-Event-Id"), event.get("id").asText());
            assertEquals(
                    hook.get("webhook_id").asText(),
                    event.at("/data/webhook_id").asText());
            assertNotNull(Instant.parse(event.get("created_at").asText()));

            JsonNode delivered = awaitDelivery(
                    alice,
                    hook.get("webhook_id").asText(),
                    test.body().get("delivery_id").asText(),
                    d -> d.get("state").asText().equals("delivered"));
            assertEquals(200, delivered.get("last_status_code").asInt());
            assertEquals(1, delivered.get("attempts").size());
            assertEquals("ok", delivered.at("/attempts/0/response").asText());
            assertTrue(delivered.get("last_duration_ms").asLong() >= 0);
            assertTrue(delivered.get("next_attempt_at").isNull());
        }
    }

    @Test
    void anUploadItsAnalysisAndAnExecutionFireTheirEventsInOrderCarryingWhatStatusAnswers() throws Exception {
        try (Receiver receiver = Receiver.start().answer(200);
                Receiver bobs = Receiver.start().answer(200);
                TestServer server = TestServer.start(data, LOCAL)) {
            Api alice = server.alice();
            JsonNode hook = register(
                    alice,
                    receiver.url("/all"),
                    List.of(
                            "upload.completed",
                            "analysis.finished",
                            "analysis.failed",
                            "execution.progress",
                            "execution.finished",
                            "execution.failed",
                            "stream.ended"));
            register(server.bob(), bobs.url("/bob"), null);
            String secret = hook.get("secret").asText();

            long t0 = System.nanoTime();
            Api.Response uploaded = Uploads.uploadA(alice, Videos.h264Aac(), "video/mp4", 2);
            String videoId = uploaded.body().get("video_id").asText();
            Api.Response analysis = alice.postJson("/sync/video_analysis", Map.of("video_id", videoId));
            JsonNode analysed = AnalysisFlowTest.awaitJob(
                    alice, analysis.body().get("job_id").asText());
            assertEquals("finished", analysed.get("status").asText(), analysed::toString);
            String planId = alice.postJson(
                            "/sync/generate",
                            Map.of(
                                    "analysis_id",
                                    analysis.body().get("analysis_id").asText(),
                                    "seed",
                                    5))
                    .body()
                    .get("plan_id")
                    .asText();
            long t1 = System.nanoTime();
            Api.Response executed = alice.postJson("/sync/execute", Map.of("plan_id", planId));
            String jobId = executed.body().get("job_id").asText();
            JsonNode status = ScoringFlowTest.awaitExecution(alice, "/sync/status", Map.of("job_id", jobId));
            assertEquals("finished", status.get("status").asText(), status::toString);
            long finishedAt = System.nanoTime();
            System.out.printf(
                    "webhooks: upload and analysis %d ms, execution %d ms%n",
                    (t1 - t0) / 1_000_000, (finishedAt - t1) / 1_000_000);

            List<JsonNode> events = new ArrayList<>();
            for (boolean done = false; !done; ) {
                Receiver.Received got = receiver.next(PATIENCE);
                assertTrue(
                        WebhookSigner.verify(
                                secret,
                                got.header("Scorecast-Signature"),
                                got.body(),
                                Instant.now(),
                                WebhookSigner.TOLERANCE),
                        "every delivery is signed with the endpoint's secret");
                JsonNode event = Api.JSON.readTree(got.body());
                events.add(event);
                done = event.get("type").asText().equals("execution.finished");
            }
            System.out.printf(
                    "webhooks: execution.finished arrived %d ms after /sync/status said finished%n",
                    (System.nanoTime() - finishedAt) / 1_000_000);
            List<String> types =
                    events.stream().map(e -> e.get("type").asText()).toList();
            assertEquals("upload.completed", types.getFirst(), types::toString);
            assertEquals(1, types.stream().filter("analysis.finished"::equals).count(), types::toString);
            assertEquals(
                    List.of(),
                    events.stream()
                            .map(e -> e.get("id").asText())
                            .collect(Collectors.groupingBy(x -> x, Collectors.counting()))
                            .entrySet()
                            .stream()
                            .filter(e -> e.getValue() > 1)
                            .toList(),
                    "one event id each");

            JsonNode upload = events.getFirst().get("data");
            assertEquals(videoId, upload.get("video_id").asText());
            assertEquals(
                    uploaded.body().get("duration").asDouble(),
                    upload.get("duration").asDouble(),
                    "what complete answered");
            JsonNode analysisEvent = events.stream()
                    .filter(e -> e.get("type").asText().equals("analysis.finished"))
                    .findFirst()
                    .orElseThrow();
            assertEquals(
                    analysed.get("analysis"),
                    analysisEvent.at("/data/analysis"),
                    "the analysis, as /sync/status gives it");
            assertEquals(analysed.get("job_id"), analysisEvent.at("/data/job_id"));

            // The execution's events: progress at its stages and tenths, in order, then finished with the status
            // object.
            List<JsonNode> execution = events.stream()
                    .filter(e -> e.get("type").asText().startsWith("execution."))
                    .toList();
            assertTrue(execution.size() >= 3, "progress at several stages: " + types);
            double last = -1;
            for (JsonNode e : execution) {
                assertEquals(jobId, e.at("/data/job_id").asText());
                double progress = e.at("/data/progress").asDouble();
                assertTrue(progress >= last, "in order: " + execution);
                last = progress;
            }
            JsonNode finished = execution.getLast().get("data");
            for (String field : List.of("job_id", "kind", "status", "progress", "message", "execution_id")) {
                assertEquals(status.get(field), finished.get(field), field);
            }
            assertEquals(
                    Api.JSON.convertValue(status.get("links"), Map.class).keySet(),
                    Api.JSON.convertValue(finished.get("links"), Map.class).keySet());
            assertEquals(
                    ScoringFlowTest.fetch(status.at("/links/plan").asText()).length,
                    ScoringFlowTest.fetch(finished.at("/links/plan").asText()).length,
                    "the links in the event open the same outputs");
            assertEquals("processing", execution.getFirst().at("/data/status").asText());
            assertTrue(bobs.all().isEmpty(), "bob hears nothing of alice's work");
        }
    }

    @Test
    void aFailingEndpointIsRetriedWithBackoffForADayThenGivenUpAndRedeliveredOnRequest() throws Exception {
        var clock = new VirtualClock(Instant.parse("2026-12-01T08:00:00Z"));
        try (Receiver receiver = Receiver.start().answer(500, 503, 500);
                TestServer server = TestServer.start(data, LOCAL, clock)) {
            Api alice = server.alice();
            JsonNode hook = register(alice, receiver.url("/hook"), List.of("stream.ended"));
            String webhookId = hook.get("webhook_id").asText();
            String deliveryId = alice.postJson("/webhooks/" + webhookId + "/test", "")
                    .body()
                    .get("delivery_id")
                    .asText();
            var dispatcher = server.server.webhookDispatcher().orElseThrow();

            List<Instant> tried = new ArrayList<>();
            JsonNode delivery = null;
            for (int attempt = 1; ; attempt++) {
                int n = attempt;
                delivery = awaitDelivery(
                        alice, webhookId, deliveryId, d -> d.get("attempts").size() == n);
                tried.add(clock.instant());
                assertEquals(
                        attempt == 1 ? 503 : 500,
                        delivery.get("last_status_code").asInt());
                if (delivery.get("state").asText().equals("failed")) {
                    break;
                }
                assertEquals("pending", delivery.get("state").asText());
                Instant next = Instant.parse(delivery.get("next_attempt_at").asText());
                Duration wait = Duration.between(clock.instant(), next);
                Duration ceiling = Backoff.ceiling(attempt);
                assertTrue(
                        wait.compareTo(ceiling.dividedBy(2)) >= 0 && wait.compareTo(ceiling) <= 0,
                        "attempt " + attempt + " waits " + wait + ", within half to all of " + ceiling);
                // Not due a moment before its time: the clock stands still, and a round sends nothing.
                clock.set(next.minusMillis(1));
                assertEquals(0, dispatcher.deliverDue());
                clock.set(next);
                assertTrue(attempt < 60, "still retrying after " + attempt + " attempts");
            }
            int attempts = tried.size();
            Duration span = Duration.between(tried.getFirst(), tried.getLast());
            assertTrue(
                    span.compareTo(Duration.ofHours(23)) > 0 && span.compareTo(Duration.ofHours(24)) <= 0,
                    "retried for " + span);
            assertTrue(attempts >= 24 && attempts <= 45, attempts + " attempts in a day");
            assertEquals(attempts, receiver.all().size(), "one request per attempt");
            List<String> eventIds = receiver.all().stream()
                    .map(r -> r.header("Scorecast-Event-Id"))
                    .distinct()
                    .toList();
            assertEquals(1, eventIds.size(), "every attempt carries the same event");
            assertEquals(
                    1,
                    receiver.all().stream()
                            .map(Receiver.Received::text)
                            .distinct()
                            .count(),
                    "and the same body");
            assertNotNull(delivery.get("ended_at").asText());
            System.out.printf(
                    "webhooks: a failing endpoint got %d attempts over %s before the delivery was given up%n",
                    attempts, span);

            // Redelivered on request: a new delivery of the same event, which the mended endpoint takes.
            receiver.answer(200);
            Api.Response again =
                    alice.postJson("/webhooks/" + webhookId + "/deliveries/" + deliveryId + "/redeliver", "");
            assertEquals(202, again.status(), again::toString);
            assertEquals(
                    delivery.get("event_id").asText(),
                    again.body().get("event_id").asText());
            awaitDelivery(
                    alice,
                    webhookId,
                    again.body().get("delivery_id").asText(),
                    d -> d.get("state").asText().equals("delivered"));
            assertEquals(eventIds.getFirst(), receiver.all().getLast().header("Scorecast-Event-Id"));
            assertEquals(
                    receiver.all().getFirst().text(), receiver.all().getLast().text(), "the same body, signed anew");
            // A pending delivery is not redelivered: it goes again by itself.
            receiver.answer(500);
            String pending = alice.postJson("/webhooks/" + webhookId + "/test", "")
                    .body()
                    .get("delivery_id")
                    .asText();
            awaitDelivery(alice, webhookId, pending, d -> d.get("attempts").size() == 1);
            assertEquals(
                    409,
                    alice.postJson("/webhooks/" + webhookId + "/deliveries/" + pending + "/redeliver", "")
                            .status());
        }
    }

    @Test
    void pendingDeliveriesSurviveARestartAndAClaimOfTheDeadRunIsLetGo() throws Exception {
        var clock = new VirtualClock(Instant.parse("2026-12-01T08:00:00Z"));
        var env = new HashMap<>(LOCAL);
        env.put("SCORECAST_NODE_ID", "hooks-restart-node"); // as a node on a fixed port: the restart is the same node
        try (Receiver receiver = Receiver.start().answer(200, 500);
                TestServer server = TestServer.start(data, env, clock)) {
            Api alice = server.alice();
            String webhookId = register(alice, receiver.url("/hook"), List.of("stream.ended"))
                    .get("webhook_id")
                    .asText();
            String first = alice.postJson("/webhooks/" + webhookId + "/test", "")
                    .body()
                    .get("delivery_id")
                    .asText();
            awaitDelivery(alice, webhookId, first, d -> d.get("attempts").size() == 1);
            // A second test event waits behind the first (same endpoint, same object: in order). Say the node was
            // sending it
            // when it died: its claim is still in the database, held by this node's id.
            String second = alice.postJson("/webhooks/" + webhookId + "/test", "")
                    .body()
                    .get("delivery_id")
                    .asText();
            assertEquals(0, server.server.webhookDispatcher().orElseThrow().deliverDue(), "not before the first");
            server.update(
                    "UPDATE webhook_deliveries SET claimed_by = '" + server.server.nodeId() + "', claimed_until = "
                            + Instant.parse("2030-01-01T00:00:00Z").toEpochMilli() + " WHERE id = '" + second + "'");

            server.restart();
            // The first's retry comes due only now, after the restart: were it due before, the stopping run's
            // dispatcher could be sending it when the stop cut the attempt off, which then counted as failed and
            // waited for a retry (30-60 s) on a clock that no longer moves.
            clock.advance(Duration.ofHours(1));
            alice = server.alice();
            awaitDelivery(alice, webhookId, first, d -> d.get("state").asText().equals("delivered"));
            awaitDelivery(alice, webhookId, second, d -> d.get("state").asText().equals("delivered"));
            assertEquals(3, receiver.all().size(), "the first twice (a 500, then after the restart), the second once");
        }
    }

    @Test
    void withoutLocalDeliveryLoopbackPrivateAndMetadataAddressesAreRefusedAtRegistrationAndAtDelivery()
            throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                TestServer server = TestServer.start(data, Map.of("SCORECAST_WEBHOOKS_POLL_MS", "50"))) {
            Api alice = server.alice();
            int port = listener.getLocalPort();
            Map<String, String> refused = new LinkedHashMap<>();
            refused.put("http://93.184.216.34/hook", "https");
            refused.put("https://127.0.0.1:" + port + "/hook", "loopback");
            refused.put("https://localhost:" + port + "/hook", "loopback"); // a name, resolved to 127.0.0.1
            refused.put("https://[::1]:" + port + "/", "loopback");
            refused.put("https://[::ffff:127.0.0.1]/", "loopback");
            refused.put("https://169.254.169.254/latest/meta-data/", "metadata");
            refused.put("https://[fd00:ec2::254]/", "private");
            refused.put("https://100.100.100.200/latest/meta-data/", "shared");
            refused.put("https://10.0.0.8/", "private");
            refused.put("https://192.168.1.1/", "private");
            refused.put("https://0.0.0.0/", "unspecified");
            refused.put("https://host.invalid/", "does not resolve");
            for (var bad : refused.entrySet()) {
                Api.Response r = alice.postJson("/webhooks", Map.of("url", bad.getKey()));
                assertEquals(400, r.status(), bad.getKey() + ": " + r);
                assertEquals("url", r.body().get("field").asText());
                assertTrue(
                        r.body().get("message").asText().contains(bad.getValue()),
                        bad.getKey() + ": " + r.body().get("message"));
            }

            // An endpoint whose name resolved to a public address when it was registered, and to loopback now (DNS
            // rebinding):
            // the row is written as registration would have, and the delivery-time check must catch it.
            server.update(
                    "INSERT INTO webhooks (id, owner, url, events, secret, created_at) VALUES ('whk_rebound', 'alice', "
                            + "'https://localhost:" + port + "/hook', ',stream.ended,', 'whsec_x', 0)");
            String deliveryId = alice.postJson("/webhooks/whk_rebound/test", "")
                    .body()
                    .get("delivery_id")
                    .asText();
            JsonNode attempt = awaitDelivery(
                    alice, "whk_rebound", deliveryId, d -> d.get("attempts").size() == 1);
            assertTrue(attempt.at("/attempts/0/status_code").isNull(), attempt::toString);
            String error = attempt.get("last_error").asText();
            assertTrue(
                    error.startsWith("refused:") && error.contains("127.0.0.1") && error.contains("loopback"), error);
            listener.setSoTimeout(100);
            try {
                listener.accept().close();
                throw new AssertionError("the refused delivery connected to 127.0.0.1");
            } catch (SocketTimeoutException expected) {
                // nothing connected
            }
        }
    }

    static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
