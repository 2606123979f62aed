package dev.scorecast.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.OperatingSystemMXBean;
import dev.scorecast.engine.core.AudioRate;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * {@code scorecast bench live}: N users, each with a live stream in the default format (AAC),
 * each listened to over loopback for a minute. A listener passes when the audio it received
 * (counted in ADTS frames of 1024 samples, not bytes) is at least 99.5 % of the wall time since
 * its first byte and it never fell more than a player's buffer behind. Prints, per N, the worst
 * listener and the server's CPU, then the highest N where every listener passed; and the control
 * latency (intensity, stop) measured on the emitted audio against a twin stream.
 */
final class LiveBenchmark {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final int RATE = AudioRate.HZ;
    /** A listener that falls further behind than this has underrun (a browser buffers a few seconds). */
    private static final double MAX_LAG_SECONDS = 1.0;

    private static final double REQUIRED_FRACTION = 0.995;
    /** The server's look-ahead, set explicitly so that the latency arithmetic knows it. */
    private static final int LOOKAHEAD_MS = 85;

    private LiveBenchmark() {}

    record Options(List<Integer> streams, int seconds, String mode, Path soundFont) {
        static Options parse(List<String> args) {
            List<Integer> streams = List.of(24, 48, 64);
            int seconds = 60;
            String mode = "shared";
            Path soundFont = Path.of("/usr/share/sounds/sf2/FluidR3_GM.sf2");
            for (int i = 0; i + 1 < args.size(); i += 2) {
                switch (args.get(i)) {
                    case "--streams" ->
                        streams = Arrays.stream(args.get(i + 1).split(","))
                                .map(Integer::parseInt)
                                .toList();
                    case "--seconds" -> seconds = Integer.parseInt(args.get(i + 1));
                    case "--mode" -> mode = args.get(i + 1);
                    case "--soundfont" -> soundFont = Path.of(args.get(i + 1));
                    default -> throw new IllegalArgumentException("unknown option " + args.get(i));
                }
            }
            if (!List.of("shared", "private").contains(mode)) {
                throw new IllegalArgumentException("--mode is shared or private");
            }
            return new Options(streams, seconds, mode, soundFont);
        }
    }

    static void run(List<String> args) throws Exception {
        Options options = Options.parse(args);
        Path repository = Path.of(System.getProperty("scorecast.repository", "."))
                .toAbsolutePath()
                .normalize();
        Machine.print(System.out);
        System.out.printf(
                "live: %s streams of %d s each, mode %s (%s), AAC 128 kb/s, SoundFont %s%n",
                options.streams(),
                options.seconds(),
                options.mode(),
                options.mode().equals("shared")
                        ? "users spread over the experiences, nothing changed: sessions of one experience share a performance"
                        : "every user sets an intensity of their own first: one synthesizer and one encoder per stream, no two alike",
                options.soundFont().getFileName());
        int best = 0;
        for (int n : options.streams()) {
            Path work = Files.createTempDirectory("scorecast-bench-live");
            try (ServerProcess server = ServerProcess.startJar(
                    repository,
                    work.resolve("data"),
                    // No admission limit: the benchmark looks for the limit itself.
                    Map.of(
                            "SCORECAST_SOUNDFONT",
                            options.soundFont().toString(),
                            "SCORECAST_LIVE_MAX_PERFORMANCES",
                            "10000",
                            "SCORECAST_LIVE_LOOKAHEAD_MS",
                            String.valueOf(LOOKAHEAD_MS)))) {
                boolean passed;
                try {
                    passed = round(server, work, n, options, true);
                } catch (IllegalStateException e) {
                    System.out.printf("live: %3d streams: could not set them all up: %s%n", n, e.getMessage());
                    passed = false;
                }
                if (passed) {
                    best = Math.max(best, n);
                }
            }
        }
        System.out.printf(
                "live: highest number of concurrent streams with no underrun: %d (mode %s)%n", best, options.mode());
    }

    private static boolean round(ServerProcess server, Path work, int n, Options options, boolean measureLatency)
            throws Exception {
        List<String> keys = server.createKeys("listener", n + 4 + 2 * START_STREAMS);
        List<String> experiences = new ArrayList<>();
        get(server.baseUrl, keys.getFirst(), "/player/genres")
                .get("genres")
                .forEach(g -> experiences.add(g.get("id").asText()));
        List<StreamListener> listeners = new ArrayList<>();
        var self = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        double listenersBefore = self.getProcessCpuTime() / 1e9;
        double cpuBefore = server.cpuSeconds();
        double busyBefore = Machine.busySeconds();
        long started = System.nanoTime();
        for (int i = 0; i < n; i++) {
            String key = keys.get(i);
            JsonNode stream = post(server.baseUrl, key, "/player/create-stream", "");
            if (options.mode().equals("private")) {
                // A different intensity for every user (relative tempo 0.92x to 1.08x, its own
                // arrangement): no two streams are the same audio, so nothing can be shared.
                post(
                        server.baseUrl,
                        key,
                        "/player/set_intensity",
                        "{\"intensity\": " + (0.3 + 0.4 * i / Math.max(1, n - 1)) + "}");
            }
            post(
                    server.baseUrl,
                    key,
                    "/player/start",
                    "{\"experience_id\": \"" + experiences.get(i % experiences.size()) + "\"}");
            listeners.add(StreamListener.open(stream.get("stream_url").asText()));
            Thread.sleep(20); // staggered starts: blocks of different streams fall due at different moments
        }
        String latency = "";
        if (measureLatency) {
            latency = latency(server, keys.subList(n, n + 4), experiences.getFirst()) + "\n"
                    + start(server, keys.subList(n + 4, n + 4 + 2 * START_STREAMS), experiences.getFirst());
        }
        long rampEnd = System.nanoTime();
        Thread.sleep(options.seconds() * 1000L);
        double wall = (System.nanoTime() - rampEnd) / 1e9;
        double cpu = server.cpuSeconds() - cpuBefore;
        double listenersCpu = self.getProcessCpuTime() / 1e9 - listenersBefore;
        double busy = Machine.busySeconds() - busyBefore;
        double total = (System.nanoTime() - started) / 1e9;
        listeners.forEach(StreamListener::close);
        double worstFraction = 1;
        double worstLag = 0;
        int failed = 0;
        for (StreamListener l : listeners) {
            double fraction = l.fraction();
            worstFraction = Math.min(worstFraction, fraction);
            worstLag = Math.max(worstLag, l.maxLag);
            if (fraction < REQUIRED_FRACTION || l.maxLag > MAX_LAG_SECONDS) {
                failed++;
                if (System.getenv("SCORECAST_BENCH_VERBOSE") != null) {
                    System.out.printf(
                            "live:   listener %d: %.2f %%, %.0f ms behind at %.1f s after connecting%n",
                            listeners.indexOf(l), 100 * fraction, 1000 * l.maxLag, l.maxLagAt);
                }
            }
        }
        double[] firstBytes =
                listeners.stream().mapToDouble(l -> l.firstByteMillis).sorted().toArray();
        System.out.printf(
                "live: %3d streams: worst listener received %.2f %% of real time, worst lag %.0f ms, %d underran; "
                        + "first byte after %.0f ms (median), %.0f ms (worst); server CPU %.2f cores, machine %.2f cores busy (others %.2f, of which the listeners %.2f)%n",
                n,
                100 * worstFraction,
                1000 * worstLag,
                failed,
                firstBytes[firstBytes.length / 2],
                firstBytes[firstBytes.length - 1],
                cpu / total,
                busy / total,
                (busy - cpu) / total,
                listenersCpu / total);
        if (!latency.isEmpty()) {
            System.out.println(latency);
        }
        return failed == 0;
    }

    /**
     * Two pairs of twin streams (private performances of one experience, started alike, so their
     * samples are identical): one of each pair gets set_intensity 1.0 (resp. stop), and the first
     * sample where the twins differ is when the call became audible. Latency counts from the
     * sample a zero-buffer player was playing when the call was made.
     */
    private static String latency(ServerProcess server, List<String> keys, String experience) throws Exception {
        List<Twin> twins = new ArrayList<>();
        for (String key : keys) {
            post(server.baseUrl, key, "/player/create-stream", "");
            post(server.baseUrl, key, "/player/set_intensity", "{\"intensity\": 0.5}");
            Twin t = new Twin(key, StreamListener.open(server.baseUrl + "/player/stream?format=wav", key));
            t.audio.awaitBytes(44 + 4096);
            twins.add(t);
        }
        for (Twin t : twins) {
            post(server.baseUrl, t.key, "/player/start", "{\"experience_id\": \"" + experience + "\"}");
        }
        Thread.sleep(3000);
        long intensityCall = twins.get(0).audio.heardAt(LOOKAHEAD_MS);
        post(server.baseUrl, twins.get(0).key, "/player/set_intensity", "{\"intensity\": 1.0}");
        long stopCall = twins.get(2).audio.heardAt(LOOKAHEAD_MS);
        post(server.baseUrl, twins.get(2).key, "/player/stop", "");
        Thread.sleep(2000);
        twins.forEach(t -> t.audio.close());
        double intensityMs = (Twin.divergence(twins.get(0), twins.get(1)) - intensityCall) / 48.0;
        double stopMs = (Twin.divergence(twins.get(2), twins.get(3)) - stopCall) / 48.0;
        return String.format(
                "live: control latency on the emitted audio: set_intensity audible after %.0f ms, stop after %.0f ms "
                        + "(from the sample a real-time player was playing at the call: the last frame received less the %d ms look-ahead)",
                intensityMs, stopMs, LOOKAHEAD_MS);
    }

    /** Fresh streams per format whose start is measured in each round. */
    private static final int START_STREAMS = 3;

    /**
     * The start of a new stream as a plain player sees it: create-stream, start, then the stream's GET, timed from the
     * request: the first bytes of audio a decoder can use (WAV: past the header; AAC: a whole ADTS frame), the first
     * sample of music, and when half a second and a second of audio have arrived (what a player starts on).
     */
    private static String start(ServerProcess server, List<String> keys, String experience) throws Exception {
        List<double[]> wav = new ArrayList<>();
        List<double[]> aac = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            boolean isWav = i % 2 == 0;
            post(server.baseUrl, key, "/player/create-stream", "");
            post(server.baseUrl, key, "/player/start", "{\"experience_id\": \"" + experience + "\"}");
            StreamListener l =
                    StreamListener.open(server.baseUrl + "/player/stream?format=" + (isWav ? "wav" : "aac"), key);
            for (int k = 0; k < 300 && l.secondAt < 0; k++) {
                Thread.sleep(10);
            }
            Thread.sleep(200);
            l.close();
            post(server.baseUrl, key, "/player/end_stream", "");
            (isWav ? wav : aac).add(new double[] {
                l.millis(l.firstAudioAt), l.millis(l.firstSoundAt), l.millis(l.halfSecondAt), l.millis(l.secondAt)
            });
        }
        return String.format(
                "live: start of a new stream (create-stream, start, then the GET; %d per format; median / worst ms after the request): "
                        + "WAV first audio %s, first music %s, 0.5 s of audio %s, 1 s %s; AAC first frame %s, 0.5 s %s, 1 s %s",
                START_STREAMS,
                stat(wav, 0),
                stat(wav, 1),
                stat(wav, 2),
                stat(wav, 3),
                stat(aac, 0),
                stat(aac, 2),
                stat(aac, 3));
    }

    private static String stat(List<double[]> runs, int column) {
        double[] v = runs.stream().mapToDouble(r -> r[column]).sorted().toArray();
        return String.format("%.0f / %.0f", v[v.length / 2], v[v.length - 1]);
    }

    private record Twin(String key, StreamListener audio) {
        /** The performance frame where {@code a}'s samples first differ from {@code b}'s, lined up by where the music starts. */
        static long divergence(Twin a, Twin b) {
            float[] x = a.audio.wavMono();
            float[] y = b.audio.wavMono();
            int sx = firstSound(x);
            int sy = firstSound(y);
            int n = Math.min(x.length - sx, y.length - sy);
            for (int i = 0; i < n; i++) {
                if (Math.abs(x[sx + i] - y[sy + i]) > 1e-4) {
                    return a.audio.firstFrame + sx + i;
                }
            }
            throw new IllegalStateException("the twins never differed");
        }

        static int firstSound(float[] x) {
            for (int i = 0; i < x.length; i++) {
                if (x[i] != 0) {
                    return i;
                }
            }
            throw new IllegalStateException("no sound");
        }
    }

    static JsonNode post(String base, String key, String path, String body) throws Exception {
        var r = CLIENT.send(
                HttpRequest.newBuilder(URI.create(base + path))
                        .header("Authorization", "Bearer " + key)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new UploadBenchmark.Refused(path, r.statusCode(), r.body());
        }
        return JSON.readTree(r.body());
    }

    static JsonNode get(String base, String key, String path) throws Exception {
        var r = CLIENT.send(
                HttpRequest.newBuilder(URI.create(base + path))
                        .header("Authorization", "Bearer " + key)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new UploadBenchmark.Refused(path, r.statusCode(), r.body());
        }
        return JSON.readTree(r.body());
    }
}
