package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every endpoint of docs/openapi.json fuzzed by two users who swap ids, keys, session tokens and
 * signed links, with bodies of random JSON, wrong types, broken syntax and junk headers. Holds:
 * no 5xx, no answer slower than 5 s, every error in the envelope, no success for bob on alice's
 * objects, and every answer as the document describes it (status, media type, JSON body). Seed-fixed; {@code -Dscorecast.fuzz.requests=100000} (and another
 * {@code scorecast.fuzz.seed}) is the benchmark run recorded in docs/RELIABILITY.md.
 *
 * <p>Tagged slow (bin/test --all, CI): a fuzz campaign with a wall-clock bound (no answer slower than 5
 * s), 7 s; AuthTest stays in the fast tier.
 */
@Tag("slow")
class EndpointFuzzTest {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Duration PATIENCE = Duration.ofSeconds(5);
    /** Endpoints and the fields their bodies or queries name; values come from the id pool or random JSON. */
    private static final Map<String, List<String>> JSON_FIELDS = Map.ofEntries(
            Map.entry("POST /sync/initialize_video_upload", List.of("file_name", "file_size", "file_type")),
            Map.entry("POST /sync/complete_video_upload", List.of("upload_id")),
            Map.entry("POST /sync_upload_init", List.of("payload")),
            Map.entry("POST /sync_upload_complete", List.of("payload", "taskid", "total")),
            Map.entry("POST /sync/video_analysis", List.of("video_id")),
            Map.entry("POST /sync/status", List.of("job_id")),
            Map.entry("POST /sync_video_analysis", List.of("taskid")),
            Map.entry(
                    "POST /sync/generate",
                    List.of(
                            "analysis_id",
                            "genre",
                            "seed",
                            "with_vocals",
                            "with_voiceover",
                            "voiceover_script",
                            "original_audio_voiceover")),
            Map.entry("POST /sync/execute", List.of("plan_id", "plan")),
            Map.entry("POST /sync_status", List.of("execid")),
            Map.entry("POST /player/start", List.of("experience_id")),
            Map.entry("POST /player/replace_plan", List.of("plan")),
            Map.entry("POST /player/set_intensity", List.of("intensity")),
            Map.entry("POST /player/toggle_vocals", List.of("vocals")),
            Map.entry("POST /player/create-stream", List.of()),
            Map.entry("POST /player/end_stream", List.of()),
            Map.entry("POST /player/stop", List.of()),
            Map.entry("POST /webhooks", List.of("url", "events")));

    @TempDir
    static Path data;

    @Test
    void twoUsersSwappingIdsNeverGetA5xxAHangOrTheOthersObjects() throws Exception {
        int requests = Integer.getInteger("scorecast.fuzz.requests", 1500);
        long seed = Long.getLong("scorecast.fuzz.seed", 20261123L);
        // Local webhook delivery allowed, so that both users can register endpoints (on a closed port of this machine).
        try (TestServer server =
                TestServer.start(data, Map.of("SCORECAST_WORKERS", "1", "SCORECAST_WEBHOOKS_ALLOW_LOCAL", "true"))) {
            String base = "http://127.0.0.1:" + server.port();
            World world = World.build(server);
            List<String> endpoints = endpoints();
            Random random = new Random(seed);
            HttpClient client = HttpClient.newBuilder().connectTimeout(PATIENCE).build();
            Map<String, Integer> statuses = new TreeMap<>();
            List<String> failures = new ArrayList<>();
            Map<String, String> breaches = new TreeMap<>();
            long slowest = 0;
            for (int i = 0; i < requests && failures.size() < 10; i++) {
                Fuzzed f = fuzz(endpoints.get(random.nextInt(endpoints.size())), world, random, base);
                long started = System.nanoTime();
                HttpResponse<InputStream> response;
                String body;
                try {
                    response = sendRetryingAStaleConnection(client, f.request);
                    try (InputStream in = response.body()) {
                        // A live stream never ends (and waits for its performance to start): its headers are the
                        // answer.
                        boolean live = f.endpoint.equals("GET /player/stream") && response.statusCode() == 200;
                        body = live ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
                    }
                } catch (HttpTimeoutException e) {
                    failures.add("no answer within " + PATIENCE.toSeconds() + " s: " + f);
                    continue;
                } catch (IOException e) {
                    failures.add("the connection closed without an answer (" + e.getMessage() + "): " + f);
                    continue;
                }
                long millis = (System.nanoTime() - started) / 1_000_000;
                slowest = Math.max(slowest, millis);
                statuses.merge(f.endpoint + " " + response.statusCode(), 1, Integer::sum);
                String type = response.headers().firstValue("Content-Type").orElse(null);
                String text = body == null ? "" : body;
                String problem = check(f, response.statusCode(), text, world);
                if (problem != null) {
                    failures.add(problem + ": " + f + " -> " + response.statusCode() + " "
                            + text.substring(0, Math.min(300, text.length())));
                }
                // Every answer, refusals of junk included, is held to the published document (OpenApiContract). Each
                // kind of breach is kept once, by operation, status and what is wrong, with one request that caused it,
                // and fuzzing goes on: the failure then lists every kind the campaign found.
                for (String violation : OpenApiContract.published()
                        .violations(
                                f.request.method(), f.request.uri().getRawPath(), response.statusCode(), type, body)) {
                    String what = violation.substring(violation.indexOf(": ", violation.indexOf(" -> ")) + 2);
                    String example = f.toString();
                    breaches.putIfAbsent(
                            f.endpoint + " -> " + response.statusCode() + ": " + what,
                            example.substring(0, Math.min(300, example.length())));
                }
            }
            System.out.printf(
                    "endpoint fuzz: %d requests, seed %d, slowest answer %d ms%n%s%n",
                    requests, seed, slowest, statuses);
            assertEquals(List.of(), failures);
            assertEquals(Map.of(), breaches, "answers that /openapi.json does not describe, each with one request");
            assertTrue(
                    statuses.keySet().stream().anyMatch(k -> k.endsWith(" 200")),
                    "some requests must succeed: " + statuses);
        }
    }

    /**
     * The response; a connection the server closed after an earlier refusal (while the client still
     * held it for reuse) gets one fresh try, as any HTTP client would.
     */
    private static HttpResponse<InputStream> sendRetryingAStaleConnection(HttpClient client, HttpRequest request)
            throws Exception {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (HttpTimeoutException e) {
            throw e;
        } catch (IOException stale) {
            return client.send(request, HttpResponse.BodyHandlers.ofInputStream());
        }
    }

    /** The failure, or null when the answer is acceptable. */
    private static String check(Fuzzed f, int status, String body, World world) {
        if (status >= 500) {
            return "a 5xx";
        }
        if (status >= 400) {
            try {
                JsonNode error = Api.JSON.readTree(body);
                if (!error.hasNonNull("error") || !error.hasNonNull("message")) {
                    return "an error outside the envelope";
                }
            } catch (Exception e) {
                return "an error that is not JSON";
            }
        }
        if (f.asBob && f.usesAlicesObject && status >= 200 && status < 300) {
            // A status call about an id bob does not own answers "inactive", the spec's word for none.
            boolean inactive = body.contains("\"inactive\"");
            boolean alicesDataShown = world.aliceSecrets.stream().anyMatch(body::contains);
            if (!inactive || alicesDataShown) {
                return "bob succeeded on alice's object";
            }
        }
        return null;
    }

    private static List<String> endpoints() throws Exception {
        JsonNode doc = Api.JSON.readTree(Path.of(System.getProperty("user.dir"))
                .resolveSibling("docs")
                .resolve("openapi.json")
                .toFile());
        List<String> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = doc.get("paths").fields(); paths.hasNext(); ) {
            var path = paths.next();
            path.getValue()
                    .fieldNames()
                    .forEachRemaining(method -> out.add(method.toUpperCase() + " " + path.getKey()));
        }
        return out;
    }

    /** One request, and what it carries, for the checks and the failure message. */
    private record Fuzzed(
            String endpoint, HttpRequest request, boolean asBob, boolean usesAlicesObject, String summary) {
        @Override
        public String toString() {
            return endpoint + " " + summary;
        }
    }

    private static Fuzzed fuzz(String endpoint, World w, Random r, String base) {
        boolean asBob = r.nextInt(10) < 7;
        String credential = switch (r.nextInt(12)) {
            case 0 -> null;
            case 1 -> "sc_aaaaaaaaaaaa_" + "b".repeat(32);
            case 2 -> asBob ? w.aliceToken : w.bobToken; // the other user's stream token
            case 3 -> asBob ? w.bobToken : w.aliceToken;
            default -> asBob ? w.bobKey : w.aliceKey;
        };
        // Bob holding alice's session token acts as alice (a token is a capability), so only bob's own credentials
        // count.
        boolean actingAsBob = w.bobKey.equals(credential) || w.bobToken.equals(credential);
        boolean[] alices = {false};
        String method = endpoint.substring(0, endpoint.indexOf(' '));
        String path = endpoint.substring(endpoint.indexOf(' ') + 1);
        HttpRequest.Builder b;
        String summary;
        if (path.equals("/files/{execution}/{name}")) {
            String link = r.nextBoolean()
                    ? w.aliceLink
                    : w.aliceLink.replaceAll("signature=[0-9a-f]+", "signature=" + "0".repeat(64));
            if (r.nextBoolean()) {
                link = link.replace("video.mp4", r.nextBoolean() ? "results.json" : "..%2F..%2Fscorecast.db");
            }
            b = HttpRequest.newBuilder(URI.create(link));
            summary = link;
            // A signed link is a capability: anyone holding it may download, so it is not "alice's object" here.
        } else {
            Map<String, String> query = new LinkedHashMap<>();
            if (path.equals("/sync/upload_status")) {
                query.put("upload_id", id(w, r, "upload", asBob, alices));
            } else if (path.equals("/sync/thumbnails")) {
                query.put("video_id", id(w, r, "video", asBob, alices));
                if (r.nextBoolean()) {
                    query.put("count", r.nextBoolean() ? String.valueOf(r.nextInt(40) - 2) : junkString(r));
                }
            } else if (path.equals("/sync/events")) {
                query.put(
                        r.nextBoolean() ? "execution_id" : "analysis_id",
                        id(w, r, r.nextBoolean() ? "execution" : "analysis", asBob, alices));
                if (r.nextInt(4) == 0) {
                    query.put("last_event_id", junkString(r));
                }
            } else if (path.equals("/webhooks/{webhook_id}/deliveries") && r.nextBoolean()) {
                query.put("limit", r.nextBoolean() ? String.valueOf(r.nextInt(120) - 10) : junkString(r));
            } else if (path.equals("/player/stream")) {
                query.put("format", r.nextBoolean() ? "wav" : junkString(r));
                if (r.nextBoolean()) {
                    query.put("stream_id", id(w, r, "stream", asBob, alices));
                }
            }
            if (path.equals("/studio/{file}")) {
                // The studio's public files: a real one, a missing one, or junk (a path segment, encoded).
                String[] files = {"app.js", "studio.css", "pcm-worklet.js", "nothing.js", "..%2Fopenapi.json"};
                path = "/studio/"
                        + (r.nextInt(4) == 0
                                ? URLEncoder.encode(junkString(r), StandardCharsets.UTF_8)
                                : files[r.nextInt(files.length)]);
            }
            if (path.startsWith("/player/hls/")) {
                // Public and shared: no user's object to swap, so unknown or junk experiences and files, each answered
                // 404
                // (a real experience's channel answers 503 while it starts, which HlsTest covers).
                path = path.replace(
                        "{experience}",
                        r.nextBoolean() ? "nothing-here" : URLEncoder.encode(junkString(r), StandardCharsets.UTF_8));
                path = path.replace(
                        "{file}",
                        r.nextBoolean() ? "init.mp4" : URLEncoder.encode(junkString(r), StandardCharsets.UTF_8));
            }
            if (path.startsWith("/webhooks/")) {
                // Both users' endpoints and deliveries, or junk, in the path.
                path = path.replace(
                        "{webhook_id}", URLEncoder.encode(id(w, r, "webhook", asBob, alices), StandardCharsets.UTF_8));
                if (path.contains("{delivery_id}")) {
                    path = path.replace(
                            "{delivery_id}",
                            URLEncoder.encode(id(w, r, "delivery", asBob, alices), StandardCharsets.UTF_8));
                }
            }
            StringBuilder url = new StringBuilder(base).append(path);
            String sep = "?";
            for (var q : query.entrySet()) {
                url.append(sep)
                        .append(q.getKey())
                        .append('=')
                        .append(URLEncoder.encode(q.getValue(), StandardCharsets.UTF_8));
                sep = "&";
            }
            b = HttpRequest.newBuilder(URI.create(url.toString()));
            summary = url.substring(base.length());
            if (credential != null) {
                b.header("Authorization", "Bearer " + credential);
            }
        }
        b.timeout(PATIENCE);
        if (method.equals("GET")) {
            b.GET();
        } else if (method.equals("DELETE")) {
            b.DELETE();
        } else if (path.equals("/sync/upload_chunk")) {
            b.header("X-Upload-Id", headerSafe(id(w, r, "upload", asBob, alices)))
                    .header(
                            "X-Chunk-Index",
                            r.nextInt(4) == 0 ? headerSafe(junkString(r)) : String.valueOf(r.nextInt(5) - 1));
            if (r.nextBoolean()) {
                b.header("X-Chunk-Sha256", headerSafe(junkString(r)));
            }
            byte[] bytes = new byte[r.nextInt(4096)];
            r.nextBytes(bytes);
            b.header("Content-Type", "application/octet-stream").POST(HttpRequest.BodyPublishers.ofByteArray(bytes));
            summary += " chunk of " + bytes.length;
        } else if (path.equals("/sync_upload_chunk") || path.equals("/sync_generate") || path.equals("/sync_execute")) {
            String boundary = "fuzz-" + UUID.randomUUID();
            ObjectNode payload = NODES.objectNode();
            payload.put("taskid", id(w, r, "task", asBob, alices));
            if (r.nextBoolean()) {
                payload.set("index", randomValue(r, 0));
                payload.set("total", randomValue(r, 0));
            }
            StringBuilder body = new StringBuilder();
            body.append("--")
                    .append(boundary)
                    .append("\r\nContent-Disposition: form-data; name=\"payload\"\r\n\r\n")
                    .append(r.nextInt(6) == 0 ? "{broken" : payload.toString())
                    .append("\r\n");
            String part =
                    path.equals("/sync_upload_chunk") ? "file" : path.equals("/sync_generate") ? "analysis" : "plan";
            if (r.nextInt(5) > 0) {
                String content = part.equals("file")
                        ? junkString(r)
                        : r.nextBoolean()
                                ? w.alicePlanOrAnalysis(part)
                                : randomValue(r, 0).toString();
                body.append("--")
                        .append(boundary)
                        .append("\r\nContent-Disposition: form-data; name=\"")
                        .append(part)
                        .append("\"; filename=\"x\"\r\n\r\n")
                        .append(content)
                        .append("\r\n");
            }
            body.append("--").append(boundary).append(r.nextInt(8) == 0 ? "" : "--\r\n");
            b.header("Content-Type", "multipart/form-data; boundary=" + (r.nextInt(10) == 0 ? "other" : boundary))
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
            summary += " payload " + payload;
        } else {
            ObjectNode body = NODES.objectNode();
            for (String field : JSON_FIELDS.getOrDefault(endpoint, List.of())) {
                if (r.nextInt(5) == 0) {
                    continue;
                }
                String kind = idKind(field);
                if (kind != null && r.nextInt(4) > 0) {
                    body.put(field, id(w, r, kind, asBob, alices));
                } else if (field.equals("plan") && r.nextBoolean()) {
                    body.set(field, w.mutatedPlan(r));
                } else if (field.equals("payload")) {
                    ObjectNode inner = NODES.objectNode();
                    inner.put("filename", junkString(r));
                    if (path.equals("/sync_upload_complete")) {
                        inner.put("taskid", id(w, r, "task", asBob, alices));
                    }
                    body.set(field, r.nextBoolean() ? inner : randomValue(r, 0));
                } else {
                    body.set(field, randomValue(r, 0));
                }
            }
            if (r.nextInt(6) == 0) {
                body.set(junkString(r), randomValue(r, 0));
            }
            String text = switch (r.nextInt(12)) {
                case 0 -> "";
                case 1 -> "{\"unterminated\": ";
                case 2 -> "[" + body + "]";
                case 3 -> "{\"a\":".repeat(2000) + "1" + "}".repeat(2000);
                default -> body.toString();
            };
            b.header("Content-Type", r.nextInt(10) == 0 ? "text/plain" : "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(text));
            summary += " " + (text.length() > 200 ? text.substring(0, 200) + "..." : text);
        }
        return new Fuzzed(
                endpoint, b.build(), actingAsBob, alices[0], summary + (credential == null ? " (no key)" : ""));
    }

    /** What an HTTP client can put in a header: printable ASCII, a line's length. */
    private static String headerSafe(String value) {
        String printable = value.replaceAll("[^\\x21-\\x7e]", "_");
        return printable.isEmpty() ? "_" : printable.substring(0, Math.min(printable.length(), 4000));
    }

    private static String idKind(String field) {
        return switch (field) {
            case "upload_id" -> "upload";
            case "video_id" -> "video";
            case "job_id" -> "job";
            case "analysis_id" -> "analysis";
            case "plan_id" -> "plan";
            case "execid" -> "execution";
            case "taskid" -> "task";
            case "experience_id" -> "experience";
            default -> null;
        };
    }

    /** An id of {@code kind}: the other user's (noted), one's own, or junk. */
    private static String id(World w, Random r, String kind, boolean asBob, boolean[] alices) {
        int pick = r.nextInt(10);
        if (pick < 5) {
            String alice = w.alice.get(kind);
            if (alice != null) {
                if (asBob && !kind.equals("experience")) {
                    alices[0] = true;
                }
                return alice;
            }
        }
        if (pick < 8) {
            String bob = w.bob.get(kind);
            if (bob != null) {
                return bob;
            }
        }
        return junkString(r);
    }

    private static String junkString(Random r) {
        return switch (r.nextInt(8)) {
            case 0 -> "";
            case 1 -> "../../../etc/passwd";
            case 2 -> "x".repeat(10_000);
            case 3 -> "upl_" + Long.toString(r.nextLong() & Long.MAX_VALUE, 32);
            case 4 -> "ñ€😀\u0000\u202e";
            case 5 -> "' OR 1=1 --";
            case 6 -> "%s%n%x";
            default -> Long.toString(r.nextLong());
        };
    }

    private static JsonNode randomValue(Random r, int depth) {
        return switch (r.nextInt(depth > 2 ? 7 : 9)) {
            case 0 -> NODES.nullNode();
            case 1 -> NODES.booleanNode(r.nextBoolean());
            case 2 -> NODES.numberNode(r.nextInt(3) == 0 ? Long.MAX_VALUE : r.nextInt(2000) - 1000);
            case 3 -> NODES.numberNode(r.nextBoolean() ? 1e308 * 10 : r.nextDouble());
            case 4, 5 -> NODES.textNode(junkString(r));
            case 6 -> NODES.numberNode(-0.0);
            case 7 -> {
                ArrayNode a = NODES.arrayNode();
                for (int i = r.nextInt(4); i > 0; i--) {
                    a.add(randomValue(r, depth + 1));
                }
                yield a;
            }
            default -> {
                ObjectNode o = NODES.objectNode();
                for (int i = r.nextInt(4); i > 0; i--) {
                    o.set(junkString(r), randomValue(r, depth + 1));
                }
                yield o;
            }
        };
    }

    /** Both users' objects, made through the API as a client would. */
    private static final class World {
        final Map<String, String> alice = new LinkedHashMap<>();
        final Map<String, String> bob = new LinkedHashMap<>();
        /** Strings only alice's objects contain: an answer to bob holding one leaked it. */
        final Set<String> aliceSecrets;

        final String aliceKey;
        final String bobKey;
        String aliceToken;
        String bobToken;
        String aliceLink;
        JsonNode alicePlan;
        JsonNode aliceAnalysis;

        private World(String aliceKey, String bobKey, Set<String> secrets) {
            this.aliceKey = aliceKey;
            this.bobKey = bobKey;
            this.aliceSecrets = secrets;
        }

        static World build(TestServer server) throws Exception {
            Api a = server.alice();
            Api b = server.bob();
            String secretName = "alice-private-" + UUID.randomUUID() + ".mp4";
            World w = new World(server.aliceKey, server.bobKey, new HashSet<>(Set.of(secretName)));
            byte[] video = Uploads.read(Videos.fourScenes());
            String upload = Uploads.initA(a, secretName, video.length, "video/mp4");
            Uploads.chunkA(a, upload, 0, video);
            JsonNode done = a.postJson("/sync/complete_video_upload", Map.of("upload_id", upload))
                    .body();
            w.alice.put("upload", upload);
            w.alice.put("video", done.get("video_id").asText());
            JsonNode analysis = a.postJson("/sync/video_analysis", Map.of("video_id", w.alice.get("video")))
                    .body();
            w.alice.put("analysis", analysis.get("analysis_id").asText());
            w.alice.put("job", analysis.get("job_id").asText());
            JsonNode finished =
                    AnalysisFlowTest.awaitJob(a, analysis.get("job_id").asText());
            w.aliceAnalysis = finished.get("analysis");
            JsonNode plan = a.postJson("/sync/generate", Map.of("analysis_id", w.alice.get("analysis"), "seed", 1))
                    .body();
            w.alice.put("plan", plan.get("plan_id").asText());
            w.alicePlan = plan.get("plan");
            JsonNode exec = a.postJson("/sync/execute", Map.of("plan_id", w.alice.get("plan")))
                    .body();
            w.alice.put("execution", exec.get("execution_id").asText());
            JsonNode status = ScoringFlowTest.awaitExecution(
                    a, "/sync/status", Map.of("job_id", exec.get("job_id").asText()));
            w.aliceLink = status.get("url").asText();
            w.alice.put("task", Uploads.initB(a, secretName));
            w.alice.put("experience", "lofi-rainy-desk");
            JsonNode stream = a.postJson("/player/create-stream", "").body();
            w.aliceToken = stream.get("session_token").asText();
            w.alice.put("stream", stream.get("stream_id").asText());

            String bobUpload = Uploads.initA(b, "bob.mp4", video.length, "video/mp4");
            w.bob.put("upload", bobUpload);
            w.bob.put("task", Uploads.initB(b, "bob.mp4"));
            w.bob.put("experience", "house-rooftop");
            w.bobToken = b.postJson("/player/create-stream", "")
                    .body()
                    .get("session_token")
                    .asText();
            // Webhook endpoints on a closed port: their deliveries fail and wait, which is all the fuzz needs of them.
            String hookUrl = "http://127.0.0.1:9/alice-" + UUID.randomUUID();
            JsonNode hook = a.postJson("/webhooks", Map.of("url", hookUrl)).body();
            w.alice.put("webhook", hook.get("webhook_id").asText());
            w.aliceSecrets.add(hookUrl);
            w.aliceSecrets.add(hook.get("secret").asText());
            w.alice.put(
                    "delivery",
                    a.postJson("/webhooks/" + w.alice.get("webhook") + "/test", "")
                            .body()
                            .get("delivery_id")
                            .asText());
            JsonNode bobHook = b.postJson("/webhooks", Map.of("url", "http://127.0.0.1:9/bob"))
                    .body();
            w.bob.put("webhook", bobHook.get("webhook_id").asText());
            w.bob.put(
                    "delivery",
                    b.postJson("/webhooks/" + w.bob.get("webhook") + "/test", "")
                            .body()
                            .get("delivery_id")
                            .asText());
            return w;
        }

        String alicePlanOrAnalysis(String part) {
            return part.equals("plan") ? alicePlan.toString() : aliceAnalysis.toString();
        }

        JsonNode mutatedPlan(Random r) {
            ObjectNode plan = alicePlan.deepCopy();
            if (r.nextBoolean()) {
                plan.set("duration", randomValue(r, 0));
            }
            if (r.nextBoolean() && plan.get("sections") instanceof ArrayNode sections && !sections.isEmpty()) {
                ObjectNode s = (ObjectNode) sections.get(r.nextInt(sections.size()));
                s.set(
                        List.of("bars", "tempo", "start", "end", "key", "meter", "instruments")
                                .get(r.nextInt(7)),
                        randomValue(r, 0));
            }
            return plan;
        }
    }
}
