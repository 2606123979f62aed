package dev.scorecast.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code scorecast bench chaos} (issue 28): fault campaigns against the scale-out fleet
 * ({@link ChaosFleet}: an api node and worker nodes on a PostgreSQL and an S3 store of the
 * campaign's own). Each campaign starts a fresh fleet, sets users uploading, analysing, generating
 * and executing a 12 s clip and one listener hearing a live stream, injects one fault, stops
 * submitting, waits for every job to end, and checks: every job {@code finished} or {@code error}
 * within its deadline, no answer 500 (a 503 must carry Retry-After), no stored byte lost (every key a
 * row names is in the store) or unreferenced (every object in the store is named by a row), and the
 * listener hearing the stream again after the fault. Prints one line of figures per campaign and
 * exits 1 when any check fails.
 */
final class ChaosBenchmark {
    static final List<String> CAMPAIGNS = List.of(
            "pg-restart-fast",
            "pg-restart-immediate",
            "pg-pause",
            "s3-pause",
            "s3-restart",
            "disk-full",
            "clock-ahead");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    /** A job's run deadline for the 12 s clip: two minutes plus ten times its length (JobDeadline). */
    static final Duration RUN_DEADLINE = Duration.ofSeconds(120 + 10 * 12);

    private ChaosBenchmark() {}

    record Options(List<String> campaigns, long seed, int users, int warmSeconds, int faultSeconds, int settleSeconds) {
        static Options parse(List<String> args) {
            List<String> campaigns = CAMPAIGNS;
            long seed = 20261127;
            int users = 2;
            int warm = 20;
            int fault = 30;
            int settle = 300;
            for (int i = 0; i + 1 < args.size(); i += 2) {
                String value = args.get(i + 1);
                switch (args.get(i)) {
                    case "--campaigns" -> campaigns = List.of(value.split(","));
                    case "--seed" -> seed = Long.parseLong(value);
                    case "--users" -> users = Integer.parseInt(value);
                    case "--warm-seconds" -> warm = Integer.parseInt(value);
                    case "--fault-seconds" -> fault = Integer.parseInt(value);
                    case "--settle-seconds" -> settle = Integer.parseInt(value);
                    default ->
                        throw new IllegalArgumentException("unknown option " + args.get(i) + "; options: --campaigns "
                                + String.join(",", CAMPAIGNS)
                                + " --seed N --users N --warm-seconds N --fault-seconds N --settle-seconds N");
                }
            }
            if (args.size() % 2 != 0) {
                throw new IllegalArgumentException(args.getLast() + " needs a value");
            }
            for (String c : campaigns) {
                if (!CAMPAIGNS.contains(c)) {
                    throw new IllegalArgumentException(
                            "unknown campaign " + c + "; campaigns: " + String.join(",", CAMPAIGNS));
                }
            }
            return new Options(campaigns, seed, users, warm, fault, settle);
        }
    }

    static void run(List<String> args) throws Exception {
        Options options = Options.parse(args);
        Path repository = Path.of(System.getProperty("scorecast.repository", "."))
                .toAbsolutePath()
                .normalize();
        Machine.print(System.out);
        boolean ok = true;
        for (String campaign : options.campaigns()) {
            Result result = campaign(repository, campaign, options);
            System.out.println(result.line());
            result.problems().forEach(p -> System.out.println("  FAIL " + p));
            if (!result.problems().isEmpty()
                    || result.jobEnds().keySet().stream().anyMatch(k -> k.startsWith("error"))) {
                result.nodeErrors().forEach(line -> System.out.println("  log " + line));
            }
            ok &= result.problems().isEmpty();
        }
        System.out.println(ok ? "chaos: PASS" : "chaos: FAIL");
        if (!ok) {
            System.exit(1);
        }
    }

    /** What one campaign found. */
    record Result(
            String campaign,
            String fault,
            long seed,
            int jobs,
            Map<String, Integer> jobEnds,
            Map<Integer, Long> answers,
            long noAnswer,
            long unavailableWithoutRetryAfter,
            double recoverySeconds,
            double listenerGapSeconds,
            boolean listenerResumed,
            int lost,
            int unreferenced,
            double longestJobSeconds,
            List<String> problems,
            List<String> nodeErrors) {
        String line() {
            return String.format(
                    "chaos %-21s %s; seed %d: %d jobs %s, longest %.0f s; answers %s, %d unanswered (retried), %d 503 without "
                            + "Retry-After; recovered in %.1f s; listener's longest silence %.1f s, %s; %d stored objects lost, %d unreferenced",
                    campaign,
                    fault,
                    seed,
                    jobs,
                    jobEnds,
                    longestJobSeconds,
                    answers,
                    noAnswer,
                    unavailableWithoutRetryAfter,
                    recoverySeconds,
                    listenerGapSeconds,
                    listenerResumed ? "resumed" : "NOT resumed",
                    lost,
                    unreferenced);
        }
    }

    static Result campaign(Path repository, String campaign, Options options) throws Exception {
        Path root = Files.createTempDirectory("scorecast-chaos-" + campaign + "-");
        List<String> users = new ArrayList<>();
        for (int i = 0; i < options.users(); i++) {
            users.add("chaos-user-" + i);
        }
        users.add("chaos-listener");
        List<Integer> offsets = campaign.equals("clock-ahead") ? List.of(60, 0) : List.of(0);
        int tmpfs = campaign.equals("disk-full") ? 256 : 0;
        Path clip = TestClips.short12s(repository.resolve("bench/target/bench-media"));
        try (ChaosFleet fleet = ChaosFleet.start(repository, root, users, offsets, tmpfs, Map.of())) {
            var load = new Load(fleet, clip, new Random(options.seed()));
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < options.users(); i++) {
                String key = fleet.keys.get(users.get(i));
                int index = i;
                threads.add(Thread.ofPlatform().name("chaos-user-" + i).start(() -> load.work(key, index)));
            }
            Thread listener = Thread.ofPlatform()
                    .name("chaos-listener")
                    .start(() -> load.listen(fleet.keys.get("chaos-listener")));
            Random random = new Random(options.seed() ^ campaign.hashCode());
            // The fault comes a seed-fixed moment into the work: jobs are then in every stage.
            Thread.sleep(options.warmSeconds() * 1000L + random.nextInt(5000));
            // And not before the work is under way (a busy machine starts it late): a job made and the listener hearing
            // audio.
            long warmLimit = System.nanoTime() + 180_000_000_000L;
            try (Database database = Database.open(fleet.postgres.url())) {
                while (System.nanoTime() < warmLimit
                        && (load.lastAudio < 0
                                || database.query(c -> Rows.one(
                                                        c, "SELECT COUNT(*) AS n FROM jobs", row -> row.getLong("n")))
                                                .orElse(0L)
                                        == 0)) {
                    Thread.sleep(250);
                }
            }
            long faultStart = System.nanoTime();
            String fault = inject(fleet, campaign, options.faultSeconds());
            long faultEnd = System.nanoTime();
            double recovery = load.awaitRecovery(faultEnd);
            // A little work after the fault too, then no new work: every job must end.
            Thread.sleep(Math.min(15_000, options.warmSeconds() * 1000L));
            load.submitting = false;
            for (Thread t : threads) {
                t.join(options.settleSeconds() * 1000L);
                t.interrupt();
            }
            load.listening = false;
            listener.join(10_000);
            listener.interrupt();
            List<String> problems = new ArrayList<>(load.problems);
            Map<String, Integer> ends = new TreeMap<>();
            double longest = 0;
            int jobs = 0;
            int lost;
            int unreferenced;
            try (Database database = Database.open(fleet.postgres.url())) {
                var rows = database.query(c -> Rows.list(
                        c, "SELECT id, status, error_code, created_at, updated_at FROM jobs", row -> new String[] {
                            row.getString("id"),
                            row.getString("status"),
                            row.getString("error_code"),
                            String.valueOf(row.getLong("updated_at") - row.getLong("created_at"))
                        }));
                for (String[] job : rows) {
                    jobs++;
                    String end = job[1].equals("error") ? "error:" + job[2] : job[1];
                    ends.merge(end, 1, Integer::sum);
                    double seconds = Long.parseLong(job[3]) / 1000.0;
                    longest = Math.max(longest, seconds);
                    if (!job[1].equals("finished") && !job[1].equals("error")) {
                        problems.add("job " + job[0] + " is still " + job[1] + " " + options.settleSeconds()
                                + " s after the work stopped");
                    }
                    // Its run's deadline, plus the fault (a job waits it out queued) and the settling of a restarted
                    // database.
                    double allowed = RUN_DEADLINE.toSeconds() + (faultEnd - faultStart) / 1e9 + 60;
                    if (seconds > allowed) {
                        problems.add("job " + job[0] + " took " + Math.round(seconds) + " s, more than "
                                + Math.round(allowed) + " s");
                    }
                }
                var store = StoreCheck.run(database, fleet.store.objects());
                lost = store.lost().size();
                unreferenced = store.unreferenced().size();
                store.lost().stream()
                        .limit(5)
                        .forEach(k -> problems.add("lost: a row names " + k + ", which is not in the store"));
                store.unreferenced().stream()
                        .limit(5)
                        .forEach(k -> problems.add("unreferenced: " + k + " is named by no row"));
            }
            Map<Integer, Long> answers = new TreeMap<>(load.answers);
            answers.forEach((status, count) -> {
                if (status >= 500 && status != 503) {
                    problems.add(count + " answers " + status + ", e.g. "
                            + load.serverErrors.stream().findFirst().orElse("?"));
                    // The server's own account of the first one (its log and data directory are gone afterwards).
                    for (ServerProcess node : fleet.nodes) {
                        if (!node.firstUnexpected.isEmpty()) {
                            problems.add(node.baseUrl + " logged:\n" + String.join("\n", node.firstUnexpected));
                        }
                    }
                }
            });
            if (load.unavailableWithoutRetryAfter.get() > 0) {
                problems.add(load.unavailableWithoutRetryAfter.get() + " answers 503 without Retry-After");
            }
            if (!load.resumed()) {
                problems.add("the live listener heard nothing after the fault");
            }
            if (jobs == 0) {
                problems.add("no job was made: the load did not run");
            }
            // The first lines of each node's log that carry ERROR or an exception: what to read when a job ended in
            // error.
            List<String> nodeErrors = new ArrayList<>();
            for (ServerProcess node : fleet.nodes) {
                node.firstErrors.forEach(line -> nodeErrors.add(node.baseUrl + ": " + line));
            }
            return new Result(
                    campaign,
                    fault,
                    options.seed(),
                    jobs,
                    ends,
                    answers,
                    load.noAnswer.get(),
                    load.unavailableWithoutRetryAfter.get(),
                    recovery,
                    load.longestSilenceSeconds(),
                    load.resumed(),
                    lost,
                    unreferenced,
                    longest,
                    problems,
                    nodeErrors);
        }
    }

    /** Injects the campaign's fault and returns what was done, for the report. */
    static String inject(ChaosFleet fleet, String campaign, int faultSeconds) throws Exception {
        switch (campaign) {
            case "pg-restart-fast", "pg-restart-immediate" -> {
                String mode = campaign.endsWith("fast") ? "fast" : "immediate";
                long start = System.nanoTime();
                fleet.postgres.stopServer(mode);
                fleet.postgres.startServer();
                return String.format(
                        "PostgreSQL stopped (%s) and started again in %.1f s", mode, (System.nanoTime() - start) / 1e9);
            }
            case "pg-pause" -> {
                var pids = fleet.postgres.pids();
                ChaosFleet.signal("STOP", pids);
                Thread.sleep(faultSeconds * 1000L);
                ChaosFleet.signal("CONT", pids);
                return "PostgreSQL's " + pids.size() + " processes paused (SIGSTOP) for " + faultSeconds + " s";
            }
            case "s3-pause" -> {
                long pid = fleet.store.pid();
                ChaosFleet.signal("STOP", List.of(pid));
                Thread.sleep(faultSeconds * 1000L);
                ChaosFleet.signal("CONT", List.of(pid));
                return "the S3 store paused (SIGSTOP) for " + faultSeconds + " s";
            }
            case "s3-restart" -> {
                fleet.store.stopServer();
                Thread.sleep(faultSeconds * 1000L);
                fleet.store.startServer();
                return "the S3 store stopped for " + faultSeconds + " s, then started again";
            }
            case "disk-full" -> {
                Path data = fleet.workers.getFirst().dataDir;
                Path filler = data.resolve("filler");
                // Fill the tmpfs to the last byte: dd stops at ENOSPC (its exit status says so; that is the point).
                var p = new ProcessBuilder("dd", "if=/dev/zero", "of=" + filler, "bs=1M")
                        .redirectErrorStream(true)
                        .start();
                p.getInputStream().readAllBytes();
                p.waitFor();
                long filled = Files.size(filler);
                Thread.sleep(faultSeconds * 1000L);
                Files.delete(filler);
                return "the worker's data directory (a 256 MiB tmpfs) filled to the last byte (" + (filled >> 20)
                        + " MiB) for " + faultSeconds + " s";
            }
            case "clock-ahead" -> {
                // The fault is the setting: the first worker's clock has run 60 s ahead since it started; let both
                // work.
                Thread.sleep(faultSeconds * 1000L);
                return "one of two workers 60 s ahead (SCORECAST_CLOCK_OFFSET_SECONDS=60) the whole run";
            }
            default -> throw new IllegalArgumentException(campaign);
        }
    }

    /** Users working and one listening, as clients do: a 503 or 429 is waited out (Retry-After) and the call made again. */
    static final class Load {
        private final ChaosFleet fleet;
        private final Path clip;
        private final Random random;
        volatile boolean submitting = true;
        volatile boolean listening = true;
        final Map<Integer, Long> answers = new ConcurrentHashMap<>();
        final AtomicLong noAnswer = new AtomicLong();
        final AtomicLong unavailableWithoutRetryAfter = new AtomicLong();
        final List<String> serverErrors = new CopyOnWriteArrayList<>();
        final List<String> problems = new CopyOnWriteArrayList<>();
        /** When the listener last received audio, and the longest time it went without. */
        volatile long lastAudio = -1;

        private volatile long longestSilence;
        private volatile long audioAfterFault = -1;
        private volatile long faultEnded = Long.MAX_VALUE;

        Load(ChaosFleet fleet, Path clip, Random random) {
            this.fleet = fleet;
            this.clip = clip;
            this.random = random;
        }

        record Answer(int status, JsonNode body, String retryAfter) {}

        /** One call, made again while the answer says to wait (429, 503) or none came; a 4xx or 5xx otherwise ends the cycle. */
        Answer call(
                String key, String method, String path, String contentType, byte[] body, Map<String, String> headers)
                throws Exception {
            long deadline = System.nanoTime() + 600_000_000_000L;
            while (true) {
                var request = HttpRequest.newBuilder(URI.create(fleet.api.baseUrl + path))
                        .timeout(Duration.ofSeconds(120))
                        .header("Authorization", "Bearer " + key);
                headers.forEach(request::header);
                if (method.equals("POST")) {
                    request.header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofByteArray(body));
                }
                HttpResponse<String> response;
                try {
                    response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
                } catch (IOException e) {
                    noAnswer.incrementAndGet();
                    if (System.nanoTime() > deadline) {
                        throw e;
                    }
                    Thread.sleep(1000);
                    continue;
                }
                int status = response.statusCode();
                answers.merge(status, 1L, Long::sum);
                String retryAfter = response.headers().firstValue("Retry-After").orElse(null);
                if (status == 503 && retryAfter == null) {
                    unavailableWithoutRetryAfter.incrementAndGet();
                }
                if (status >= 500 && status != 503 && serverErrors.size() < 5) {
                    serverErrors.add(method + " " + path + " " + status + " " + response.body());
                }
                if ((status == 503 || status == 429) && System.nanoTime() < deadline) {
                    Thread.sleep(Math.min(10, retryAfter == null ? 1 : Long.parseLong(retryAfter.strip())) * 1000L);
                    continue;
                }
                JsonNode json = response.body().isEmpty() ? null : JSON.readTree(response.body());
                if (status / 100 != 2) {
                    throw new UploadBenchmark.Refused(path, status, response.body());
                }
                return new Answer(status, json, retryAfter);
            }
        }

        Answer postJson(String key, String path, Object body) throws Exception {
            return call(key, "POST", path, "application/json", JSON.writeValueAsBytes(body), Map.of());
        }

        /** Upload, analysis, plan, execution, one download; over and over while {@link #submitting}. */
        void work(String key, int index) {
            List<String> genres = List.of("house", "pop", "rock", "corporate", "lofi");
            for (int cycle = 0; submitting; cycle++) {
                try {
                    byte[] bytes = Files.readAllBytes(clip);
                    String upload = postJson(
                                    key,
                                    "/sync/initialize_video_upload",
                                    Map.of(
                                            "file_name",
                                            "clip.mp4",
                                            "file_size",
                                            bytes.length,
                                            "file_type",
                                            "video/mp4"))
                            .body()
                            .get("upload_id")
                            .asText();
                    call(
                            key,
                            "POST",
                            "/sync/upload_chunk",
                            "application/octet-stream",
                            bytes,
                            Map.of("X-Upload-Id", upload, "X-Chunk-Index", "0"));
                    postJson(key, "/sync/complete_video_upload", Map.of("upload_id", upload));
                    String video = null;
                    while (video == null) {
                        JsonNode status = call(
                                        key, "GET", "/sync/upload_status?upload_id=" + upload, null, null, Map.of())
                                .body();
                        video = status.path("video_id").asText(null);
                        if (video == null) {
                            if (status.path("status").asText().equals("failed")) {
                                throw new IllegalStateException("upload failed: " + status);
                            }
                            Thread.sleep(500);
                        }
                    }
                    JsonNode analysis = postJson(key, "/sync/video_analysis", Map.of("video_id", video))
                            .body();
                    if (!awaitJob(key, analysis.get("job_id").asText())
                            .path("status")
                            .asText()
                            .equals("finished")) {
                        continue;
                    }
                    String genre;
                    synchronized (random) {
                        genre = genres.get(random.nextInt(genres.size()));
                    }
                    JsonNode plan = postJson(
                                    key,
                                    "/sync/generate",
                                    Map.of(
                                            "analysis_id",
                                            analysis.get("analysis_id").asText(),
                                            "genre",
                                            genre,
                                            "seed",
                                            cycle * 10 + index,
                                            "multitrack",
                                            false))
                            .body();
                    JsonNode execution = postJson(
                                    key,
                                    "/sync/execute",
                                    Map.of("plan_id", plan.get("plan_id").asText()))
                            .body();
                    JsonNode ended = awaitJob(key, execution.get("job_id").asText());
                    String link = ended.path("links").path("video").asText(null);
                    if (ended.path("status").asText().equals("finished") && link != null) {
                        download(link);
                    }
                } catch (InterruptedException e) {
                    return;
                } catch (UploadBenchmark.Refused e) {
                    // A refusal (a 4xx: e.g. 507 while the disk was full) ends the cycle; counted in answers.
                    pause();
                } catch (Exception e) {
                    if (problems.size() < 20) {
                        problems.add("user " + index + ": " + e);
                    }
                    pause();
                }
            }
        }

        private void pause() {
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** Polls a job until it ends; its last status. */
        JsonNode awaitJob(String key, String jobId) throws Exception {
            while (true) {
                JsonNode status =
                        postJson(key, "/sync/status", Map.of("job_id", jobId)).body();
                String s = status.path("status").asText();
                if (s.equals("finished") || s.equals("error")) {
                    return status;
                }
                Thread.sleep(500);
            }
        }

        /** A finished execution's video, read to the end: its bytes must be in the store. */
        void download(String link) throws Exception {
            for (int attempt = 0; ; attempt++) {
                HttpResponse<InputStream> r = CLIENT.send(
                        HttpRequest.newBuilder(URI.create(link))
                                .timeout(Duration.ofSeconds(120))
                                .build(),
                        HttpResponse.BodyHandlers.ofInputStream());
                long n;
                try (InputStream in = r.body()) {
                    n = in.transferTo(OutputStream.nullOutputStream());
                }
                answers.merge(r.statusCode(), 1L, Long::sum);
                if (r.statusCode() == 200 && n > 0) {
                    return;
                }
                if ((r.statusCode() == 503 || r.statusCode() == 429) && attempt < 60) {
                    Thread.sleep(2000);
                    continue;
                }
                problems.add("the video of a finished execution did not download: " + r.statusCode() + " " + link);
                return;
            }
        }

        /** Hears a live stream (WAV) the whole campaign; when it ends, opens it again, or makes a new one. */
        void listen(String key) {
            while (listening) {
                try {
                    Answer created;
                    try {
                        created = call(key, "POST", "/player/create-stream", "application/json", new byte[0], Map.of());
                    } catch (UploadBenchmark.Refused e) {
                        if (e.status != 409) {
                            throw e;
                        }
                        postJson(key, "/player/end_stream", Map.of());
                        continue;
                    }
                    postJson(key, "/player/start", Map.of("experience_id", "lofi-rainy-desk"));
                    String url = created.body().get("stream_urls") != null
                                    && created.body().get("stream_urls").has("wav")
                            ? created.body().get("stream_urls").get("wav").asText()
                            : created.body().get("stream_url").asText().replaceAll("format=[a-z0-9]+", "format=wav");
                    HttpResponse<InputStream> r = CLIENT.send(
                            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofInputStream());
                    if (r.statusCode() != 200) {
                        r.body().close();
                        Thread.sleep(1000);
                        continue;
                    }
                    try (InputStream in = r.body()) {
                        byte[] buffer = new byte[16384];
                        while (listening && in.read(buffer) >= 0) {
                            heard();
                        }
                    }
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    pause();
                }
            }
        }

        private void heard() {
            long now = System.nanoTime();
            if (lastAudio > 0) {
                longestSilence = Math.max(longestSilence, now - lastAudio);
            }
            lastAudio = now;
            if (now > faultEnded && audioAfterFault < 0) {
                audioAfterFault = now;
            }
        }

        double longestSilenceSeconds() {
            return lastAudio < 0 ? -1 : Math.max(longestSilence, System.nanoTime() - lastAudio) / 1e9;
        }

        boolean resumed() {
            return audioAfterFault > 0 && lastAudio > 0 && System.nanoTime() - lastAudio < 5_000_000_000L;
        }

        /** Seconds from the fault's end until the api node answers a user's call with 200 again. */
        double awaitRecovery(long faultEnd) throws Exception {
            faultEnded = faultEnd;
            String key = fleet.keys.values().iterator().next();
            while (System.nanoTime() - faultEnd < 300_000_000_000L) {
                try {
                    var r = CLIENT.send(
                            HttpRequest.newBuilder(URI.create(fleet.api.baseUrl + "/sync/library"))
                                    .timeout(Duration.ofSeconds(10))
                                    .header("Authorization", "Bearer " + key)
                                    .build(),
                            HttpResponse.BodyHandlers.discarding());
                    if (r.statusCode() == 200) {
                        return (System.nanoTime() - faultEnd) / 1e9;
                    }
                } catch (IOException notYet) {
                    // no answer yet
                }
                Thread.sleep(100);
            }
            return -1;
        }
    }

    /** Store against rows: every key a row names is in the store, and every object in the store is named by a row. */
    static final class StoreCheck {
        record Found(List<String> lost, List<String> unreferenced) {}

        static Found run(Database database, Path objects) throws IOException {
            Set<String> named = new HashSet<>();
            Set<String> prefixes = new HashSet<>();
            database.query(c -> {
                // A completed upload's chunks were assembled into its video and are gone; its chunk rows stay as its
                // record.
                named.addAll(Rows.list(
                        c,
                        "SELECT ch.stored_as AS k FROM upload_chunks ch JOIN uploads u ON u.id = ch.upload_id"
                                + " WHERE u.state <> 'complete'",
                        row -> row.getString("k")));
                named.addAll(Rows.list(c, "SELECT stored_as AS k FROM videos", row -> row.getString("k")));
                named.addAll(Rows.list(
                        c,
                        "SELECT audio_stored_as AS k FROM videos WHERE audio_stored_as IS NOT NULL",
                        row -> row.getString("k")));
                named.addAll(Rows.list(
                        c,
                        "SELECT result_key AS k FROM analyses WHERE result_key IS NOT NULL",
                        row -> row.getString("k")));
                named.addAll(Rows.list(c, "SELECT plan_key AS k FROM plans", row -> row.getString("k")));
                named.addAll(Rows.list(c, "SELECT analysis_key AS k FROM plans", row -> row.getString("k")));
                named.addAll(Rows.list(c, "SELECT plan_key AS k FROM executions", row -> row.getString("k")));
                named.addAll(Rows.list(c, "SELECT analysis_key AS k FROM executions", row -> row.getString("k")));
                named.addAll(Rows.list(
                        c,
                        "SELECT failure_key AS k FROM executions WHERE failure_key IS NOT NULL",
                        row -> row.getString("k")));
                prefixes.addAll(Rows.list(
                        c,
                        "SELECT outputs AS k FROM executions WHERE outputs IS NOT NULL",
                        row -> row.getString("k") + "/"));
                // Beside a video the server keeps what it makes of it (thumbnail strips), named by the video's row.
                prefixes.addAll(Rows.list(c, "SELECT id FROM videos", row -> "videos/" + row.getString("id") + "/"));
                return null;
            });
            List<String> stored = new ArrayList<>();
            if (Files.isDirectory(objects)) {
                try (var files = Files.walk(objects)) {
                    files.filter(Files::isRegularFile)
                            .forEach(f -> stored.add(objects.relativize(f).toString()));
                }
            }
            Set<String> present = new HashSet<>(stored);
            List<String> lost =
                    named.stream().filter(k -> !present.contains(k)).sorted().toList();
            List<String> unreferenced = stored.stream()
                    .filter(k -> !named.contains(k) && prefixes.stream().noneMatch(k::startsWith))
                    .sorted()
                    .toList();
            return new Found(lost, unreferenced);
        }
    }
}
