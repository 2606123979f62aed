package dev.scorecast.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * {@code scorecast bench flood}: issue 28's live control flood through HTTP. One user keeps
 * {@code --in-flight} (32) {@code set_intensity} calls in flight on their stream for {@code --seconds}
 * (30) while {@code --streams} (24) other users' streams play, each at an intensity of its own (so
 * each is a performance of its own that composes its own sections), each listened to in AAC as in
 * {@code bench live}, and each steered once every 3 s at a moment of its own. The same length of
 * time is played first without the flood, so that what the machine does anyway is told apart.
 *
 * <p>It passes when no listener of another stream underruns (falls more than a second behind, or
 * receives less than 99.5 % of real time since its first byte, as in {@code bench live}; the share in
 * each stretch is shown, but a few seconds' window is moved by the delivery's jitter), no section played without the notes due
 * before its composition came (the node's {@code scorecast_live_late_sections_total}, the flooded
 * stream's included), no call is answered 5xx, and the flooded stream ends at the intensity of its
 * last call (the latest wins). Intensities come from {@code --seed}, so two runs send the same calls.
 */
final class FloodBenchmark {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final double MAX_LAG_SECONDS = 1.0;
    private static final double REQUIRED_FRACTION = 0.995;
    private static final long STEER_EVERY_MILLIS = 3000;

    private FloodBenchmark() {}

    record Options(int streams, int seconds, int inFlight, long seed) {
        static Options parse(List<String> args) {
            int streams = 24;
            int seconds = 30;
            int inFlight = 32;
            long seed = 20261127;
            for (int i = 0; i + 1 < args.size(); i += 2) {
                switch (args.get(i)) {
                    case "--streams" -> streams = Integer.parseInt(args.get(i + 1));
                    case "--seconds" -> seconds = Integer.parseInt(args.get(i + 1));
                    case "--in-flight" -> inFlight = Integer.parseInt(args.get(i + 1));
                    case "--seed" -> seed = Long.parseLong(args.get(i + 1));
                    default -> throw new IllegalArgumentException("unknown option " + args.get(i));
                }
            }
            return new Options(streams, seconds, inFlight, seed);
        }
    }

    /** What one campaign saw; {@code problems} is empty when it passed. */
    record Result(String line, List<String> problems, long floodCalls) {}

    static void run(List<String> args) throws Exception {
        Options options = Options.parse(args);
        Path repository = Path.of(System.getProperty("scorecast.repository", "."))
                .toAbsolutePath()
                .normalize();
        Machine.print(System.out);
        Result result = campaign(repository, options);
        System.out.println(result.line());
        System.out.println(
                result.problems().isEmpty() ? "flood: PASS" : "flood: FAIL: " + String.join("; ", result.problems()));
        if (!result.problems().isEmpty()) {
            System.exit(1);
        }
    }

    static Result campaign(Path repository, Options options) throws Exception {
        Path work = Files.createTempDirectory("scorecast-bench-flood");
        // The flooding user's 32 calls and its listener exceed the default 32 requests in flight a user; the cap is
        // raised so
        // that all of them reach the player, which is what is under test (with the default, the extra calls are 429 at
        // once).
        try (ServerProcess server = ServerProcess.startJar(
                repository,
                work.resolve("data"),
                Map.of(
                        "SCORECAST_LIVE_MAX_PERFORMANCES",
                        "10000",
                        "SCORECAST_MAX_REQUESTS_IN_FLIGHT",
                        String.valueOf(options.inFlight() + 8)))) {
            return play(server, options);
        }
    }

    private static Result play(ServerProcess server, Options options) throws Exception {
        List<String> keys = server.createKeys("flood", options.streams() + 1);
        List<String> experiences = new ArrayList<>();
        get(server.baseUrl, keys.getFirst(), "/player/genres")
                .get("genres")
                .forEach(g -> experiences.add(g.get("id").asText()));
        Random seeded = new Random(options.seed());
        List<StreamListener> listeners = new ArrayList<>();
        for (int i = 0; i <= options.streams(); i++) {
            String key = keys.get(i);
            JsonNode stream = LiveBenchmark.post(server.baseUrl, key, "/player/create-stream", "");
            // An intensity of its own: no two streams share a performance, each composes its own sections.
            call(
                    server.baseUrl,
                    key,
                    "/player/set_intensity",
                    intensity(0.3 + 0.4 * i / Math.max(1, options.streams())));
            LiveBenchmark.post(
                    server.baseUrl,
                    key,
                    "/player/start",
                    "{\"experience_id\": \"" + experiences.get(i % experiences.size()) + "\"}");
            listeners.add(StreamListener.open(stream.get("stream_url").asText()));
            Thread.sleep(20); // staggered starts, as in bench live
        }
        String flooded = keys.getFirst();
        List<String> others = keys.subList(1, keys.size());
        Thread.sleep(3000); // every stream past its start

        Phase quiet = phase(server, listeners, others, options, null, seeded);
        Phase flood = phase(server, listeners, others, options, flooded, seeded);
        // The latest wins: one call after the flood, whose intensity the stream must then have.
        double last = Math.round(seeded.nextDouble() * 100) / 100.0;
        int lastStatus = call(server.baseUrl, flooded, "/player/set_intensity", intensity(last));
        // The stream's loop takes a control at its next block (21 ms): the answer comes before, so the state is asked
        // until then.
        long asked = System.nanoTime();
        double now = get(server.baseUrl, flooded, "/player/current_experience")
                .get("intensity")
                .asDouble();
        while (Math.abs(now - last) > 1e-9 && System.nanoTime() - asked < 2_000_000_000L) {
            Thread.sleep(10);
            now = get(server.baseUrl, flooded, "/player/current_experience")
                    .get("intensity")
                    .asDouble();
        }
        double appliedMillis = (System.nanoTime() - asked) / 1e6;
        listeners.forEach(StreamListener::close);

        List<String> problems = new ArrayList<>();
        double worstLag = 0;
        double worstWhole = 1;
        int underran = 0;
        for (int i = 1; i < listeners.size(); i++) {
            StreamListener l = listeners.get(i);
            worstLag = Math.max(worstLag, l.maxLag);
            worstWhole = Math.min(worstWhole, l.fraction());
            if (l.maxLag > MAX_LAG_SECONDS || l.endedEarly || l.fraction() < REQUIRED_FRACTION) {
                underran++;
            }
        }
        if (underran > 0) {
            problems.add(String.format(
                    "%d other streams underran (worst lag %.0f ms, worst share of real time %.2f %%)",
                    underran, worstLag * 1000, 100 * worstWhole));
        }
        if (flood.lateSections > 0 || quiet.lateSections > 0) {
            problems.add((quiet.lateSections + flood.lateSections) + " sections played without their notes ("
                    + quiet.lateSections + " before the flood, " + flood.lateSections + " during it)");
        }
        long fivexx = flood.statuses.entrySet().stream()
                        .filter(e -> e.getKey() >= 500)
                        .mapToLong(e -> e.getValue().get())
                        .sum()
                + quiet.steerStatuses.entrySet().stream()
                        .filter(e -> e.getKey() >= 500)
                        .mapToLong(e -> e.getValue().get())
                        .sum()
                + flood.steerStatuses.entrySet().stream()
                        .filter(e -> e.getKey() >= 500)
                        .mapToLong(e -> e.getValue().get())
                        .sum();
        if (fivexx > 0) {
            problems.add(fivexx + " calls answered 5xx");
        }
        if (lastStatus != 200 || Math.abs(now - last) > 1e-9) {
            problems.add("after the flood, set_intensity " + last + " answered " + lastStatus
                    + " and the stream plays at " + now + " 2 s later");
        }
        long floodCalls =
                flood.statuses.values().stream().mapToLong(AtomicLong::get).sum();
        String line = String.format(
                "flood: %d other streams, %d s quiet then %d s with %d set_intensity calls in flight on one stream (seed %d): "
                        + "%d flood calls (%.0f a second; answers %s; p50 %.0f ms, p99 %.0f ms); the others' steering p99 %.0f ms quiet, %.0f ms flooded; "
                        + "the others' worst share of real time %.2f %% in all (%.2f %% quiet, %.2f %% flooded, counted by the window), worst lag %.0f ms, %d underran; "
                        + "late sections %d quiet, %d flooded; late blocks %d quiet, %d flooded; the last call's intensity playing %.0f ms after its answer; "
                        + "cores busy quiet / flooded: server %.2f / %.2f, this client %.2f / %.2f, the machine %.2f / %.2f",
                options.streams(),
                options.seconds(),
                options.seconds(),
                options.inFlight(),
                options.seed(),
                floodCalls,
                floodCalls / flood.wall,
                flood.statuses,
                percentile(flood.latencies, 0.5),
                percentile(flood.latencies, 0.99),
                percentile(quiet.steerLatencies, 0.99),
                percentile(flood.steerLatencies, 0.99),
                100 * worstWhole,
                100 * quiet.worstFraction,
                100 * flood.worstFraction,
                worstLag * 1000,
                underran,
                quiet.lateSections,
                flood.lateSections,
                quiet.lateBlocks,
                flood.lateBlocks,
                appliedMillis,
                quiet.cpu / quiet.wall,
                flood.cpu / flood.wall,
                quiet.clientCpu / quiet.wall,
                flood.clientCpu / flood.wall,
                quiet.busy / quiet.wall,
                flood.busy / flood.wall);
        return new Result(line, problems, floodCalls);
    }

    /** One stretch of {@code --seconds}: the others steered, and the flood when {@code floodKey} is set. */
    private static final class Phase {
        final Map<Integer, AtomicLong> statuses = new ConcurrentHashMap<>();
        final Map<Integer, AtomicLong> steerStatuses = new ConcurrentHashMap<>();
        final ConcurrentLinkedQueue<Double> latencies = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Double> steerLatencies = new ConcurrentLinkedQueue<>();
        double worstFraction = 1;
        long lateSections;
        long lateBlocks;
        double cpu;
        double clientCpu;
        double busy;
        double wall;
    }

    private static final OperatingSystemMXBean SELF =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private static Phase phase(
            ServerProcess server,
            List<StreamListener> listeners,
            List<String> others,
            Options options,
            String floodKey,
            Random seeded)
            throws Exception {
        Phase phase = new Phase();
        long[] before = metrics(server);
        double cpuBefore = server.cpuSeconds();
        double clientBefore = SELF.getProcessCpuTime() / 1e9;
        double busyBefore = Machine.busySeconds();
        double[] received =
                listeners.stream().mapToDouble(StreamListener::received).toArray();
        long start = System.nanoTime();
        long end = start + options.seconds() * 1_000_000_000L;
        List<Thread> threads = new ArrayList<>();
        if (floodKey != null) {
            for (int t = 0; t < options.inFlight(); t++) {
                Random own = new Random(seeded.nextLong());
                threads.add(Thread.ofVirtual().start(() -> {
                    while (System.nanoTime() < end) {
                        long t0 = System.nanoTime();
                        int status = call(
                                server.baseUrl,
                                floodKey,
                                "/player/set_intensity",
                                intensity(Math.round(own.nextDouble() * 100) / 100.0));
                        phase.latencies.add((System.nanoTime() - t0) / 1e6);
                        phase.statuses
                                .computeIfAbsent(status, s -> new AtomicLong())
                                .incrementAndGet();
                    }
                }));
            }
        }
        for (int i = 0; i < others.size(); i++) {
            String key = others.get(i);
            long offset = STEER_EVERY_MILLIS * i / others.size();
            threads.add(Thread.ofVirtual().start(() -> {
                try {
                    Thread.sleep(offset);
                    for (int k = 0; System.nanoTime() < end; k++) {
                        long t0 = System.nanoTime();
                        int status =
                                call(server.baseUrl, key, "/player/set_intensity", intensity(k % 2 == 0 ? 0.25 : 0.75));
                        phase.steerLatencies.add((System.nanoTime() - t0) / 1e6);
                        phase.steerStatuses
                                .computeIfAbsent(status, s -> new AtomicLong())
                                .incrementAndGet();
                        Thread.sleep(STEER_EVERY_MILLIS);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        phase.wall = (System.nanoTime() - start) / 1e9;
        phase.cpu = server.cpuSeconds() - cpuBefore;
        phase.clientCpu = SELF.getProcessCpuTime() / 1e9 - clientBefore;
        phase.busy = Machine.busySeconds() - busyBefore;
        for (int i = 1; i < listeners.size(); i++) {
            phase.worstFraction = Math.min(
                    phase.worstFraction, Math.min(1, (listeners.get(i).received() - received[i]) / phase.wall));
        }
        long[] after = metrics(server);
        phase.lateSections = after[0] - before[0];
        phase.lateBlocks = after[1] - before[1];
        return phase;
    }

    private static final Pattern LATE_SECTIONS = Pattern.compile("(?m)^scorecast_live_late_sections_total (\\d+)");
    private static final Pattern LATE_BLOCKS = Pattern.compile("(?m)^scorecast_render_late_blocks_total (\\d+)");

    /** The node's late sections and late blocks so far, from /metrics. */
    private static long[] metrics(ServerProcess server) throws Exception {
        String text = CLIENT.send(
                        HttpRequest.newBuilder(URI.create(server.baseUrl + "/metrics"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        var sections = LATE_SECTIONS.matcher(text);
        var blocks = LATE_BLOCKS.matcher(text);
        if (!sections.find() || !blocks.find()) {
            throw new IllegalStateException("no late sections or blocks in /metrics: " + text);
        }
        return new long[] {Long.parseLong(sections.group(1)), Long.parseLong(blocks.group(1))};
    }

    private static String intensity(double value) {
        return "{\"intensity\": " + value + "}";
    }

    /** A call whose status is counted, not checked (the flood expects refusals); a failed connection counts as 599. */
    private static int call(String base, String key, String path, String body) {
        try {
            return post(base, key, path, body).statusCode();
        } catch (Exception e) {
            return 599;
        }
    }

    private static HttpResponse<String> postRaw(String base, String key, String path, String body) throws Exception {
        return CLIENT.send(
                HttpRequest.newBuilder(URI.create(base + path))
                        .header("Authorization", "Bearer " + key)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private record Answer(int statusCode, JsonNode body) {}

    private static Answer post(String base, String key, String path, String body) throws Exception {
        HttpResponse<String> r = postRaw(base, key, path, body);
        return new Answer(r.statusCode(), r.body().isEmpty() ? JSON.nullNode() : JSON.readTree(r.body()));
    }

    private static JsonNode get(String base, String key, String path) throws Exception {
        return LiveBenchmark.get(base, key, path);
    }

    private static double percentile(ConcurrentLinkedQueue<Double> values, double p) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return v.length == 0 ? Double.NaN : v[Math.min(v.length - 1, (int) Math.floor(p * v.length))];
    }
}
