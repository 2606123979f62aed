package dev.scorecast.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.scorecast.server.auth.ApiKeys;
import dev.scorecast.server.db.Database;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

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
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final int RATE = 48_000;
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
                    case "--streams" -> streams = java.util.Arrays.stream(args.get(i + 1).split(",")).map(Integer::parseInt).toList();
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
        Path repository = Path.of(System.getProperty("scorecast.repository", ".")).toAbsolutePath().normalize();
        Machine.print(System.out);
        System.out.printf("live: %s streams of %d s each, mode %s (%s), AAC 128 kb/s, SoundFont %s%n", options.streams(), options.seconds(),
                options.mode(), options.mode().equals("shared")
                        ? "users spread over the experiences, nothing changed: sessions of one experience share a performance"
                        : "every user sets an intensity of their own first: one synthesizer and one encoder per stream, no two alike",
                options.soundFont().getFileName());
        int best = 0;
        for (int n : options.streams()) {
            Path work = Files.createTempDirectory("scorecast-bench-live");
            try (ServerProcess server = ServerProcess.startJar(repository, work.resolve("data"),
                    // No admission limit: the benchmark looks for the limit itself.
                    Map.of("SCORECAST_SOUNDFONT", options.soundFont().toString(), "SCORECAST_LIVE_MAX_PERFORMANCES", "10000",
                            "SCORECAST_LIVE_LOOKAHEAD_MS", String.valueOf(LOOKAHEAD_MS)))) {
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
        System.out.printf("live: highest number of concurrent streams with no underrun: %d (mode %s)%n", best, options.mode());
    }

    private static boolean round(ServerProcess server, Path work, int n, Options options, boolean measureLatency) throws Exception {
        List<String> keys = new ArrayList<>();
        try (Database db = Database.open("jdbc:sqlite:" + work.resolve("data/scorecast.db"))) {
            ApiKeys apiKeys = new ApiKeys(db);
            for (int i = 0; i < n + 4 + 2 * START_STREAMS; i++) {
                keys.add(apiKeys.create("listener-" + i));
            }
        }
        List<String> experiences = new ArrayList<>();
        get(server.baseUrl, keys.getFirst(), "/player/genres").get("genres").forEach(g -> experiences.add(g.get("id").asText()));
        List<Listener> listeners = new ArrayList<>();
        var self = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
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
                post(server.baseUrl, key, "/player/set_intensity", "{\"intensity\": " + (0.3 + 0.4 * i / Math.max(1, n - 1)) + "}");
            }
            post(server.baseUrl, key, "/player/start", "{\"experience_id\": \"" + experiences.get(i % experiences.size()) + "\"}");
            listeners.add(Listener.open(stream.get("stream_url").asText()));
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
        listeners.forEach(Listener::close);
        double worstFraction = 1;
        double worstLag = 0;
        int failed = 0;
        for (Listener l : listeners) {
            double fraction = l.fraction();
            worstFraction = Math.min(worstFraction, fraction);
            worstLag = Math.max(worstLag, l.maxLag);
            if (fraction < REQUIRED_FRACTION || l.maxLag > MAX_LAG_SECONDS) {
                failed++;
                if (System.getenv("SCORECAST_BENCH_VERBOSE") != null) {
                    System.out.printf("live:   listener %d: %.2f %%, %.0f ms behind at %.1f s after connecting%n", listeners.indexOf(l),
                            100 * fraction, 1000 * l.maxLag, l.maxLagAt);
                }
            }
        }
        double[] firstBytes = listeners.stream().mapToDouble(l -> l.firstByteMillis).sorted().toArray();
        System.out.printf("live: %3d streams: worst listener received %.2f %% of real time, worst lag %.0f ms, %d underran; "
                        + "first byte after %.0f ms (median), %.0f ms (worst); server CPU %.2f cores, machine %.2f cores busy (others %.2f, of which the listeners %.2f)%n",
                n, 100 * worstFraction, 1000 * worstLag, failed, firstBytes[firstBytes.length / 2], firstBytes[firstBytes.length - 1],
                cpu / total, busy / total, (busy - cpu) / total, listenersCpu / total);
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
            Twin t = new Twin(key, Listener.open(server.baseUrl + "/player/stream?format=wav", key));
            t.audio.awaitBytes(44 + 4096);
            twins.add(t);
        }
        for (Twin t : twins) {
            post(server.baseUrl, t.key, "/player/start", "{\"experience_id\": \"" + experience + "\"}");
        }
        Thread.sleep(3000);
        long intensityCall = twins.get(0).audio.heardAt();
        post(server.baseUrl, twins.get(0).key, "/player/set_intensity", "{\"intensity\": 1.0}");
        long stopCall = twins.get(2).audio.heardAt();
        post(server.baseUrl, twins.get(2).key, "/player/stop", "");
        Thread.sleep(2000);
        twins.forEach(t -> t.audio.close());
        double intensityMs = (Twin.divergence(twins.get(0), twins.get(1)) - intensityCall) / 48.0;
        double stopMs = (Twin.divergence(twins.get(2), twins.get(3)) - stopCall) / 48.0;
        return String.format("live: control latency on the emitted audio: set_intensity audible after %.0f ms, stop after %.0f ms "
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
            Listener l = Listener.open(server.baseUrl + "/player/stream?format=" + (isWav ? "wav" : "aac"), key);
            for (int k = 0; k < 300 && l.secondAt < 0; k++) {
                Thread.sleep(10);
            }
            Thread.sleep(200);
            l.close();
            post(server.baseUrl, key, "/player/end_stream", "");
            (isWav ? wav : aac).add(new double[] {l.millis(l.firstAudioAt), l.millis(l.firstSoundAt), l.millis(l.halfSecondAt), l.millis(l.secondAt)});
        }
        return String.format("live: start of a new stream (create-stream, start, then the GET; %d per format; median / worst ms after the request): "
                        + "WAV first audio %s, first music %s, 0.5 s of audio %s, 1 s %s; AAC first frame %s, 0.5 s %s, 1 s %s",
                START_STREAMS, stat(wav, 0), stat(wav, 1), stat(wav, 2), stat(wav, 3), stat(aac, 0), stat(aac, 2), stat(aac, 3));
    }

    private static String stat(List<double[]> runs, int column) {
        double[] v = runs.stream().mapToDouble(r -> r[column]).sorted().toArray();
        return String.format("%.0f / %.0f", v[v.length / 2], v[v.length - 1]);
    }

    private record Twin(String key, Listener audio) {
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

    /**
     * One listener: a plain HTTP/1.1 GET over a socket, read on its own virtual thread, counting
     * ADTS frames (or keeping WAV bytes) as they arrive. A socket and a hand-written chunked
     * decoder, not java.net.http: fifty of its streams took a sixth of the machine the server was
     * being measured on, this takes a fraction of that.
     */
    private static final class Listener {
        final java.net.Socket socket;
        final InputStream in;
        final long connected;
        final boolean wav;
        final long firstFrame;
        volatile long firstByte = -1;
        volatile double firstByteMillis;
        volatile long frames;
        /** When audio a decoder can use first arrived, the first non-zero sample (WAV), half a second and a second of audio; -1 until then. */
        volatile long firstAudioAt = -1;
        volatile long firstSoundAt = -1;
        volatile long halfSecondAt = -1;
        volatile long secondAt = -1;
        volatile double maxLag;
        /** Seconds after connecting when the listener was furthest behind. */
        volatile double maxLagAt;
        final java.io.ByteArrayOutputStream kept = new java.io.ByteArrayOutputStream();
        /** When the last bytes of {@link #kept} arrived (under its lock). */
        long lastArrival;
        final AtomicBoolean closed = new AtomicBoolean();
        final boolean chunked;

        private Listener(java.net.Socket socket, InputStream in, Map<String, String> headers, long connected) {
            this.socket = socket;
            this.in = in;
            this.connected = connected;
            this.wav = headers.getOrDefault("content-type", "").contains("wav");
            this.firstFrame = Long.parseLong(headers.getOrDefault("x-scorecast-frame", "0"));
            this.chunked = "chunked".equalsIgnoreCase(headers.get("transfer-encoding"));
            Thread.ofVirtual().start(this::read);
        }

        static Listener open(String url) throws Exception {
            return open(url, null);
        }

        static Listener open(String url, String key) throws Exception {
            URI uri = URI.create(url);
            long start = System.nanoTime();
            var socket = new java.net.Socket(uri.getHost(), uri.getPort());
            socket.setTcpNoDelay(true);
            String request = "GET " + uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()) + " HTTP/1.1\r\n"
                    + "Host: " + uri.getHost() + ":" + uri.getPort() + "\r\n"
                    + (key == null ? "" : "Authorization: Bearer " + key + "\r\n") + "Connection: close\r\n\r\n";
            socket.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            var in = new java.io.BufferedInputStream(socket.getInputStream(), 16384);
            String status = line(in);
            Map<String, String> headers = new java.util.HashMap<>();
            for (String h = line(in); !h.isEmpty(); h = line(in)) {
                int colon = h.indexOf(':');
                headers.put(h.substring(0, colon).strip().toLowerCase(java.util.Locale.ROOT), h.substring(colon + 1).strip());
            }
            if (!status.contains(" 200 ")) {
                socket.close();
                throw new IllegalStateException(url + " answered " + status + " " + headers);
            }
            return new Listener(socket, in, headers, start);
        }

        /** The next piece of the body: a chunk when the body is chunked, else whatever has arrived; -1 at its end. */
        private int next(byte[] into, int at) throws IOException {
            if (!chunked) {
                return in.read(into, at, Math.min(16384, into.length - at));
            }
            int size = Integer.parseInt(line(in).split(";")[0].strip(), 16);
            if (size == 0) {
                return -1;
            }
            if (at + size > into.length) {
                throw new IOException("a chunk of " + size + " bytes");
            }
            in.readNBytes(into, at, size);
            line(in); // the CRLF after the chunk
            return size;
        }

        private static String line(InputStream in) throws IOException {
            var b = new StringBuilder();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new IOException("the stream ended in its headers");
                }
                if (c != '\r') {
                    b.append((char) c);
                }
            }
            return b.toString();
        }

        private void read() {
            byte[] body = new byte[65536];
            int have = 0;
            try (in) {
                while (true) {
                    if (body.length - have < 32768) {
                        body = java.util.Arrays.copyOf(body, 2 * body.length);
                    }
                    int size = next(body, have);
                    if (size < 0) {
                        return;
                    }
                    long now = System.nanoTime();
                    if (firstByte < 0) {
                        firstByte = now;
                        firstByteMillis = (now - connected) / 1e6;
                    }
                    if (wav) {
                        long audioFrames;
                        synchronized (kept) {
                            int from = kept.size();
                            kept.write(body, have, size);
                            lastArrival = now;
                            audioFrames = (kept.size() - 44) / 4;
                            if (firstSoundAt < 0) {
                                for (int i = Math.max(from, 44) - from; i < size; i++) {
                                    if (body[have + i] != 0) {
                                        firstSoundAt = now;
                                        break;
                                    }
                                }
                            }
                        }
                        arrived(audioFrames, now);
                        continue;
                    }
                    have += size;
                    int at = 0;
                    while (at + 7 <= have) {
                        if ((body[at] & 0xff) != 0xff || (body[at + 1] & 0xf0) != 0xf0) {
                            at++;
                            continue;
                        }
                        int length = ((body[at + 3] & 0x03) << 11) | ((body[at + 4] & 0xff) << 3) | ((body[at + 5] & 0xe0) >> 5);
                        if (length < 7 || at + length > have) {
                            break;
                        }
                        frames++;
                        at += length;
                    }
                    arrived(frames * 1024, now);
                    System.arraycopy(body, at, body, 0, have - at);
                    have -= at;
                    double lag = (now - firstByte) / 1e9 - received();
                    if (lag > maxLag) {
                        maxLag = lag;
                        maxLagAt = (now - connected) / 1e9;
                    }
                }
            } catch (IOException | RuntimeException e) {
                // closed
            }
        }

        private void arrived(long audioFrames, long now) {
            if (audioFrames > 0 && firstAudioAt < 0) {
                firstAudioAt = now;
            }
            if (audioFrames >= RATE / 2 && halfSecondAt < 0) {
                halfSecondAt = now;
            }
            if (audioFrames >= RATE && secondAt < 0) {
                secondAt = now;
            }
        }

        /** Milliseconds from the request to {@code at} (NaN when it never happened). */
        double millis(long at) {
            return at < 0 ? Double.NaN : (at - connected) / 1e6;
        }

        /** Seconds of audio received. */
        double received() {
            return frames * 1024.0 / RATE;
        }

        /** Audio received over the wall time since the first byte. */
        double fraction() {
            double wallSeconds = (System.nanoTime() - firstByte) / 1e9;
            return Math.min(1, received() / wallSeconds);
        }

        /**
         * The frame a player in step with the server's clock is playing now: the stream leaves the
         * server the look-ahead ahead of real time, so that much before the last frame received,
         * plus the time since it arrived, up to the 40 ms between the server's writes (beyond that
         * the server is late, and a player would be waiting, not playing on).
         */
        long heardAt() {
            long received;
            long since;
            synchronized (kept) {
                received = firstFrame + (kept.size() - 44) / 4;
                since = System.nanoTime() - lastArrival;
            }
            return received + Math.min(since, 40_000_000L) * RATE / 1_000_000_000L - (long) LOOKAHEAD_MS * RATE / 1000;
        }

        void awaitBytes(int n) throws InterruptedException {
            for (int i = 0; i < 300; i++) {
                synchronized (kept) {
                    if (kept.size() >= n) {
                        return;
                    }
                }
                Thread.sleep(10);
            }
        }

        float[] wavMono() {
            byte[] bytes;
            synchronized (kept) {
                bytes = kept.toByteArray();
            }
            ByteBuffer b = ByteBuffer.wrap(bytes, 44, bytes.length - 44).order(ByteOrder.LITTLE_ENDIAN);
            float[] out = new float[b.remaining() / 4];
            for (int i = 0; i < out.length; i++) {
                out[i] = (b.getShort() + b.getShort()) / 65536f;
            }
            return out;
        }

        void close() {
            if (closed.compareAndSet(false, true)) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // already closed
                }
            }
        }
    }

    private static JsonNode post(String base, String key, String path, String body) throws Exception {
        var r = CLIENT.send(HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new IllegalStateException(path + " answered " + r.statusCode() + ": " + r.body());
        }
        return JSON.readTree(r.body());
    }

    private static JsonNode get(String base, String key, String path) throws Exception {
        var r = CLIENT.send(HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + key).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(path + " answered " + r.statusCode() + ": " + r.body());
        }
        return JSON.readTree(r.body());
    }
}
