package dev.scorecast.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code scorecast bench hls}: the origin's cost of shared experiences over HLS, with no CDN in front (the worst case: the
 * origin serves every listener). N simulated low-latency HLS listeners of one experience, each doing what hls.js does at
 * the live edge: a blocking playlist reload for the next part ({@code _HLS_msn}, {@code _HLS_part}), then that part,
 * over and over; all on virtual threads of this process against a real server process. Prints requests and bytes per
 * second, part latency (from the moment its blocking reload answered), errors, and the server's CPU; docs/SCALING.md
 * projects them to 10^5 listeners.
 */
final class HlsBenchmark {
    private static final Pattern HINT =
            Pattern.compile("PRELOAD-HINT:TYPE=PART,URI=\"media/([0-9a-z]+)-p([0-9]+)\\.([0-9])\\.m4s\"");

    /** What went wrong, counted by kind (a status, or an exception's class). */
    private static final ConcurrentHashMap<String, AtomicLong> ERRORS = new ConcurrentHashMap<>();

    private HlsBenchmark() {}

    private static void error(AtomicLong errors, String kind) {
        errors.incrementAndGet();
        ERRORS.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
    }

    static void run(List<String> args) throws Exception {
        int listeners = 1000;
        int seconds = 60;
        String experience = "house-rooftop";
        String against = null;
        for (int i = 0; i + 1 < args.size(); i += 2) {
            switch (args.get(i)) {
                case "--listeners" -> listeners = Integer.parseInt(args.get(i + 1));
                case "--seconds" -> seconds = Integer.parseInt(args.get(i + 1));
                case "--experience" -> experience = args.get(i + 1);
                case "--base" -> against = args.get(i + 1);
                default -> throw new IllegalArgumentException("unknown option " + args.get(i));
            }
        }
        Path repository = Path.of(System.getProperty("scorecast.repository", "."))
                .toAbsolutePath()
                .normalize();
        Machine.print(System.out);
        if (against != null) {
            // A server already running (a node behind a load balancer, an nginx or CDN in front of one): its CPU is not
            // read.
            load(against + "/player/hls/" + experience + "/", listeners, seconds, experience, null);
            return;
        }
        Path work = Files.createTempDirectory("scorecast-bench-hls");
        try (ServerProcess server = ServerProcess.startJar(
                repository,
                work.resolve("data"),
                Map.of("SCORECAST_SOUNDFONT", "/usr/share/sounds/sf2/FluidR3_GM.sf2"))) {
            load(server.baseUrl + "/player/hls/" + experience + "/", listeners, seconds, experience, server);
        }
    }

    private static void load(String base, int listeners, int seconds, String experience, ServerProcess server)
            throws Exception {
        {
            HttpClient client = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(10))
                    .executor(Executors.newVirtualThreadPerTaskExecutor())
                    .build();
            // Open the channel first (a listener before the crowd), as a CDN's first request would.
            client.send(
                    HttpRequest.newBuilder(URI.create(base + "index.m3u8")).build(),
                    HttpResponse.BodyHandlers.ofString());
            AtomicLong requests = new AtomicLong();
            AtomicLong bytes = new AtomicLong();
            AtomicLong errors = new AtomicLong();
            ERRORS.clear();
            ConcurrentLinkedQueue<Long> partMillis = new ConcurrentLinkedQueue<>();
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            double cpuBefore = server == null ? 0 : server.cpuSeconds();
            double busyBefore = Machine.busySeconds();
            long started = System.nanoTime();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < listeners; i++) {
                threads.add(
                        Thread.ofVirtual().start(() -> listen(client, base, end, requests, bytes, errors, partMillis)));
                Thread.sleep(2); // joining over two seconds, not in one instant
            }
            for (Thread t : threads) {
                t.join();
            }
            double wall = (System.nanoTime() - started) / 1e9;
            double cpu = server == null ? Double.NaN : server.cpuSeconds() - cpuBefore;
            double busy = Machine.busySeconds() - busyBefore;
            List<Long> sorted = new ArrayList<>(partMillis);
            Collections.sort(sorted);
            long p50 = sorted.isEmpty() ? -1 : sorted.get(sorted.size() / 2);
            long p99 = sorted.isEmpty() ? -1 : sorted.get((int) (sorted.size() * 0.99));
            System.out.printf(
                    "hls: %d listeners of %s for %.0f s: %.0f requests/s, %.2f MB/s (%.0f kb/s per listener), %d errors%n",
                    listeners,
                    experience,
                    wall,
                    requests.get() / wall,
                    bytes.get() / wall / 1e6,
                    bytes.get() * 8 / wall / 1000 / listeners,
                    errors.get());
            System.out.println("hls: errors by kind: " + ERRORS);
            System.out.printf(
                    "hls: part fetched %d ms (median) / %d ms (p99) after its playlist answered; server CPU %.2f cores"
                            + " (%.0f us per request), machine busy %.2f cores%n",
                    p50, p99, cpu / wall, 1e6 * cpu / Math.max(1, requests.get()), busy / wall);
        }
    }

    /** One listener at the live edge until {@code end}. */
    private static void listen(
            HttpClient client,
            String base,
            long end,
            AtomicLong requests,
            AtomicLong bytes,
            AtomicLong errors,
            ConcurrentLinkedQueue<Long> partMillis) {
        String query = "";
        while (System.nanoTime() < end) {
            try {
                HttpResponse<String> playlist = client.send(
                        HttpRequest.newBuilder(URI.create(base + "index.m3u8" + query))
                                .timeout(Duration.ofSeconds(15))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                requests.incrementAndGet();
                bytes.addAndGet(playlist.body().length());
                if (playlist.statusCode() != 200) {
                    error(errors, "playlist " + playlist.statusCode());
                    Thread.sleep(500);
                    continue;
                }
                Matcher hint = HINT.matcher(playlist.body());
                if (!hint.find()) {
                    error(errors, "playlist without a hint");
                    continue;
                }
                long t0 = System.nanoTime();
                String part = "media/" + hint.group(1) + "-p" + hint.group(2) + "." + hint.group(3) + ".m4s";
                HttpResponse<byte[]> media = client.send(
                        HttpRequest.newBuilder(URI.create(base + part))
                                .timeout(Duration.ofSeconds(15))
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                requests.incrementAndGet();
                bytes.addAndGet(media.body().length);
                if (media.statusCode() != 200) {
                    error(errors, "part " + media.statusCode());
                    continue;
                }
                partMillis.add((System.nanoTime() - t0) / 1_000_000);
                // Next: the playlist that lists the part just fetched (answered at once), whose hint is the part after
                // it.
                query = "?_HLS_msn=" + hint.group(2) + "&_HLS_part=" + hint.group(3);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                error(errors, e.getClass().getSimpleName());
            }
        }
    }
}
