package dev.scorecast.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiPredicate;
import java.util.function.IntPredicate;
import java.util.function.ToDoubleFunction;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code scorecast bench soak} (issue 15): the server jar as its own process on a fresh data directory
 * for an hour of mixed work, and whether it stays flat. N listeners each hear their own live stream
 * (AAC, users spread over the experiences) the whole time; a few steering users play streams of
 * their own and call every player control in a loop (and now and then end their stream and make a
 * new one); a few working users loop over uploads (variants A and B alternately, in chunks) of a
 * 12 s clip, analysis, generate, execute, status polling and downloading every output. Every call is
 * timed by kind. Every sample period (a minute) the server process is sampled: heap after a full
 * collection ({@code jcmd GC.run}, {@code GC.heap_info}), RSS, threads and open file descriptors
 * (/proc; also every 5 s for the period's floor and peak), the data directory's size, the server's
 * CPU and the load average. At the end: the table, the control calls' p50/p99/max per kind, the
 * listeners, and PASS/FAIL against the bounds.
 */
final class SoakBenchmark {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    /** The bound on a control call (player steering and job status), at the 99th percentile. */
    private static final double CONTROL_P99_MS = 200;
    /** Heap after GC may grow this much from the warmed-up window to the last one. */
    private static final double HEAP_GROWTH = 0.10;
    /** Threads and file descriptors: growth of the period's floor allowed as noise, absolute or relative, whichever is larger. */
    private static final int THREAD_NOISE = 4;

    private static final int FD_NOISE = 8;
    private static final double COUNT_NOISE = 0.05;
    private static final long POLL_MILLIS = 500;
    private static final long CHUNK_BYTES = 256 << 10;
    private static final long CALL_TIMEOUT_SECONDS = 120;

    private SoakBenchmark() {}

    record Options(
            int minutes,
            int listeners,
            Path report,
            int workers,
            int steerers,
            int sampleSeconds,
            int pauseSeconds,
            Path soundFont) {
        static Options parse(List<String> args) {
            int minutes = 60;
            int listeners = 48;
            Path report = null;
            int workers = 2;
            int steerers = 4;
            Integer sample = null;
            int pause = 15;
            Path soundFont = Path.of("/usr/share/sounds/sf2/FluidR3_GM.sf2");
            List<String> rest = new ArrayList<>(args);
            while (!rest.isEmpty()) {
                String option = rest.removeFirst();
                if (rest.isEmpty()) {
                    throw new IllegalArgumentException(option + " needs a value");
                }
                String value = rest.removeFirst();
                switch (option) {
                    case "--minutes" -> minutes = Integer.parseInt(value);
                    case "--listeners" -> listeners = Integer.parseInt(value);
                    case "--report" -> report = Path.of(value).toAbsolutePath();
                    case "--workers" -> workers = Integer.parseInt(value);
                    case "--steerers" -> steerers = Integer.parseInt(value);
                    case "--sample-seconds" -> sample = Integer.parseInt(value);
                    case "--pause-seconds" -> pause = Integer.parseInt(value);
                    case "--soundfont" -> soundFont = Path.of(value);
                    default ->
                        throw new IllegalArgumentException("unknown option " + option + "; options: "
                                + Arrays.asList(
                                        "--minutes N",
                                        "--listeners N",
                                        "--report FILE",
                                        "--workers N",
                                        "--steerers N",
                                        "--sample-seconds N",
                                        "--pause-seconds N",
                                        "--soundfont SF2"));
                }
            }
            if (minutes < 1 || listeners < 0 || workers < 0 || steerers < 0) {
                throw new IllegalArgumentException("--minutes must be at least 1, the counts at least 0");
            }
            // A minute per sample for a real soak; a short check gets 12 or more samples.
            int sampleSeconds = sample != null ? sample : Math.max(10, Math.min(60, minutes * 60 / 12));
            return new Options(minutes, listeners, report, workers, steerers, sampleSeconds, pause, soundFont);
        }
    }

    static void run(List<String> args) throws Exception {
        Options options = Options.parse(args);
        var captured = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(new Tee(System.out, captured), true);
        Path repository = Path.of(System.getProperty("scorecast.repository", "."))
                .toAbsolutePath()
                .normalize();
        Machine.print(out);
        Path clip = TestClips.short12s(repository.resolve("bench/target/bench-media"));
        out.printf(
                "soak: %d min, %d listeners (AAC, users spread over the experiences), %d steering users (a stream each, every control "
                        + "in a loop), %d working users (uploads A and B alternately, analysis, generate, execute, status, downloads) of %s, "
                        + "%d s between one's cycles; a sample every %d s%n",
                options.minutes(),
                options.listeners(),
                options.steerers(),
                options.workers(),
                clip.getFileName(),
                options.pauseSeconds(),
                options.sampleSeconds());
        out.println(
                "retention: the server's defaults (720 h; orphans 24 h): nothing made during the run is old enough to be deleted, "
                        + "so the data directory grows by what the jobs store");
        Path work = Files.createTempDirectory("scorecast-bench-soak");
        Path gcLog = work.resolve("gc.log");
        Map<String, String> settings = Map.of(
                "SCORECAST_SOUNDFONT",
                options.soundFont().toString(),
                // Every collection with its pause and the heap after it, read by the sampler. The sampler's System.gc()
                // (jcmd GC.run) starts a concurrent cycle instead of a stop-the-world full collection: with the
                // instruments' samples the heap holds 1.6 GB, which a full collection paused for 0.5 to 1.2 s.
                "JAVA_TOOL_OPTIONS",
                "-Xlog:gc:file=" + gcLog + " -XX:+ExplicitGCInvokesConcurrent");
        try (ServerProcess server = ServerProcess.startJar(repository, work.resolve("data"), settings)) {
            new Soak(server, options, clip, gcLog, out).run();
        } finally {
            UploadBenchmark.deleteTree(work);
            if (options.report() != null) {
                Files.write(options.report(), captured.toByteArray());
                System.out.println("report written to " + options.report());
            }
        }
    }

    /** One run: its users, its loops, its samples. */
    private static final class Soak {
        final ServerProcess server;
        final Options options;
        final Path clip;
        final Path gcLog;
        final PrintStream out;
        final Calls calls = new Calls();
        final List<Sample> samples = new ArrayList<>();
        final List<StreamListener> listeners = new ArrayList<>();
        final List<StreamListener> steeredListeners = new CopyOnWriteArrayList<>();
        final AtomicInteger jobsFinished = new AtomicInteger();
        final AtomicInteger jobsFailed = new AtomicInteger();
        final List<String> jobErrors = new CopyOnWriteArrayList<>();
        final AtomicInteger cyclesAbandoned = new AtomicInteger();
        final AtomicInteger streamsRenewed = new AtomicInteger();
        final AtomicLong bytesDownloaded = new AtomicLong();
        volatile boolean running = true;
        long loadStart;
        long deadline;
        List<String> experiences = new ArrayList<>();
        List<String> genres = new ArrayList<>();

        Soak(ServerProcess server, Options options, Path clip, Path gcLog, PrintStream out) {
            this.server = server;
            this.options = options;
            this.clip = clip;
            this.gcLog = gcLog;
            this.out = out;
        }

        void run() throws Exception {
            List<String> listenerKeys = server.createKeys("listener", options.listeners());
            List<String> steerKeys = server.createKeys("steer", options.steerers());
            List<String> workKeys = server.createKeys("work", options.workers());
            LiveBenchmark.get(server.baseUrl, server.apiKey, "/player/genres")
                    .get("genres")
                    .forEach(g -> {
                        experiences.add(g.get("id").asText());
                        if (!genres.contains(g.get("genre").asText())) {
                            genres.add(g.get("genre").asText());
                        }
                    });
            long setup = System.nanoTime();
            for (int i = 0; i < listenerKeys.size(); i++) {
                String key = listenerKeys.get(i);
                JsonNode stream = LiveBenchmark.post(server.baseUrl, key, "/player/create-stream", "");
                LiveBenchmark.post(
                        server.baseUrl,
                        key,
                        "/player/start",
                        "{\"experience_id\": \"" + experiences.get(i % experiences.size()) + "\"}");
                listeners.add(StreamListener.open(stream.get("stream_url").asText()));
                Thread.sleep(20);
            }
            out.printf("set up %d listeners in %.1f s%n", listeners.size(), (System.nanoTime() - setup) / 1e9);

            heapAfterGc(); // the server's start-up collections (before the instruments were read) are not the run's
            loadStart = System.nanoTime();
            deadline = loadStart + options.minutes() * 60_000_000_000L;
            List<Thread> loops = new ArrayList<>();
            for (int i = 0; i < steerKeys.size(); i++) {
                int index = i;
                loops.add(Thread.ofVirtual().name("steer-" + i).start(() -> steer(steerKeys.get(index), index)));
            }
            for (int i = 0; i < workKeys.size(); i++) {
                int index = i;
                loops.add(Thread.ofVirtual().name("work-" + i).start(() -> work(workKeys.get(index), index)));
            }
            sampleUntilTheEnd();
            running = false;
            for (Thread loop : loops) {
                loop.join(Duration.ofSeconds(30));
            }
            listeners.forEach(StreamListener::close);
            steeredListeners.forEach(StreamListener::close);
            report();
        }

        // ---------------------------------------------------------------- steering users

        /** A stream of one's own (private: an intensity of its own), listened to, steered with every control, renewed now and then. */
        void steer(String key, int index) {
            var random = new Random(15_000 + index);
            StreamListener listener = null;
            boolean started = false;
            int actions = 0;
            while (running) {
                try {
                    if (listener == null) {
                        JsonNode stream = call(
                                "create-stream",
                                true,
                                () -> LiveBenchmark.post(server.baseUrl, key, "/player/create-stream", ""));
                        listener = StreamListener.open(stream.get("stream_url").asText());
                        steeredListeners.add(listener);
                        call(
                                "set_intensity",
                                true,
                                () -> post(
                                        key, "/player/set_intensity", "{\"intensity\": " + (0.3 + 0.1 * index) + "}"));
                        started = false;
                    }
                    if (!started) {
                        // Until it starts (a busy player answers 429 and the client tries again), nothing else is
                        // steered.
                        String experience = experiences.get((index * 5 + actions) % experiences.size());
                        actions++;
                        call(
                                "start",
                                true,
                                () -> post(key, "/player/start", "{\"experience_id\": \"" + experience + "\"}"));
                        started = true;
                        continue;
                    }
                    actions++;
                    int pick = random.nextInt(100);
                    if (actions % 150 == 0) {
                        // A user leaving and coming back: the stream ends (listener closed first) and a new one is
                        // made.
                        listener.close();
                        call("end_stream", true, () -> post(key, "/player/end_stream", ""));
                        listener = null;
                        streamsRenewed.incrementAndGet();
                        continue;
                    }
                    if (pick < 30) {
                        double intensity = Math.round(random.nextDouble() * 100) / 100.0;
                        call(
                                "set_intensity",
                                true,
                                () -> post(key, "/player/set_intensity", "{\"intensity\": " + intensity + "}"));
                    } else if (pick < 40) {
                        call("toggle_vocals", true, () -> post(key, "/player/toggle_vocals", ""));
                    } else if (pick < 52) {
                        JsonNode current = call(
                                "current_experience",
                                true,
                                () -> LiveBenchmark.get(server.baseUrl, key, "/player/current_experience"));
                        if (current.hasNonNull("plan")) {
                            String body = JSON.writeValueAsString(Map.of("plan", current.get("plan")));
                            call("replace_plan", true, () -> post(key, "/player/replace_plan", body));
                        }
                    } else if (pick < 72) {
                        call("transport", true, () -> LiveBenchmark.get(server.baseUrl, key, "/player/transport"));
                    } else if (pick < 82) {
                        call(
                                "current_experience",
                                true,
                                () -> LiveBenchmark.get(server.baseUrl, key, "/player/current_experience"));
                    } else if (pick < 88) {
                        call("stream_ttl", true, () -> LiveBenchmark.get(server.baseUrl, key, "/player/stream_ttl"));
                    } else if (pick < 94) {
                        call("liveliness", true, () -> LiveBenchmark.get(server.baseUrl, key, "/player/liveliness"));
                    } else if (pick < 97) {
                        call("stop", true, () -> post(key, "/player/stop", ""));
                    } else {
                        String experience = experiences.get(random.nextInt(experiences.size()));
                        call(
                                "start",
                                true,
                                () -> post(key, "/player/start", "{\"experience_id\": \"" + experience + "\"}"));
                    }
                    Thread.sleep(700 + random.nextInt(600));
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    pause(2000); // counted by call(); carry on as a client would
                    if (e instanceof UploadBenchmark.Refused r
                            && r.path.equals("/player/create-stream")
                            && r.status == 409) {
                        try {
                            post(key, "/player/end_stream", ""); // a stream left from before: end it and make a new one
                        } catch (Exception ignored) {
                            // gone meanwhile
                        }
                    }
                }
            }
            if (listener != null) {
                listener.close();
            }
        }

        private JsonNode post(String key, String path, String body) throws Exception {
            return LiveBenchmark.post(server.baseUrl, key, path, body);
        }

        // ---------------------------------------------------------------- working users

        /** Upload, analyse, generate, execute, poll, download; variant A and B alternately, some with vocals, some without stems. */
        void work(String key, int index) {
            for (int cycle = 0; running; cycle++) {
                String variant = (cycle + index) % 2 == 0 ? "A" : "B";
                String genre = genres.get((cycle * 5 + index) % genres.size());
                boolean vocals = cycle % 3 == 1;
                boolean stems = cycle % 4 != 3;
                try {
                    if (variant.equals("A")) {
                        cycleA(key, genre, vocals, stems, cycle);
                    } else {
                        cycleB(key, genre, vocals, stems, cycle);
                    }
                    // A pause between cycles: mixed work beside the live streams, not a machine saturated with jobs
                    // (two users scoring back to back take both cores, and the live streams then fall behind).
                    Thread.sleep(options.pauseSeconds() * 1000L);
                } catch (Abandoned e) {
                    cyclesAbandoned.incrementAndGet();
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    pause(2000); // counted by call()
                }
            }
        }

        private String upload(String key, String variant) throws Exception {
            long size = Files.size(clip);
            String id = call(
                    "upload_init",
                    false,
                    () -> UploadBenchmark.initialize(
                            server, key, variant, clip.getFileName().toString(), "video/mp4", size));
            int chunks = call(
                    "upload_chunks (all, 2 at a time)",
                    false,
                    () -> UploadBenchmark.sendChunks(server, key, variant, id, clip, CHUNK_BYTES, 2));
            call("complete", false, () -> UploadBenchmark.complete(server, key, variant, id, chunks));
            return id;
        }

        private void cycleA(String key, String genre, boolean vocals, boolean stems, int cycle) throws Exception {
            String uploadId = upload(key, "A");
            JsonNode completed = call(
                    "upload_status",
                    true,
                    () -> UploadBenchmark.getJson(server, key, "/sync/upload_status?upload_id=" + uploadId));
            String videoId = completed.path("video_id").asText(null);
            if (videoId == null) {
                throw new IllegalStateException("upload_status names no video: " + completed);
            }
            JsonNode analysisJob = call(
                    "video_analysis",
                    false,
                    () -> UploadBenchmark.postJson(server, key, "/sync/video_analysis", Map.of("video_id", videoId)));
            awaitJob(
                    key,
                    "/sync/status",
                    "status",
                    Map.of("job_id", analysisJob.get("job_id").asText()));
            JsonNode plan = call(
                    "generate",
                    false,
                    () -> UploadBenchmark.postJson(
                            server,
                            key,
                            "/sync/generate",
                            Map.of(
                                    "analysis_id",
                                    analysisJob.get("analysis_id").asText(),
                                    "genre",
                                    genre,
                                    "seed",
                                    cycle,
                                    "with_vocals",
                                    vocals,
                                    "multitrack",
                                    stems)));
            JsonNode executionJob = call(
                    "execute",
                    false,
                    () -> UploadBenchmark.postJson(
                            server,
                            key,
                            "/sync/execute",
                            Map.of("plan_id", plan.get("plan_id").asText())));
            JsonNode finished = awaitJob(
                    key,
                    "/sync/status",
                    "status",
                    Map.of("job_id", executionJob.get("job_id").asText()));
            downloadAll(finished, stems);
            if (cycle % 3 == 0) {
                call("library", false, () -> UploadBenchmark.getJson(server, key, "/sync/library"));
                call("thumbnails", false, () -> getBytes(server.baseUrl + "/sync/thumbnails?video_id=" + videoId, key));
            }
        }

        private void cycleB(String key, String genre, boolean vocals, boolean stems, int cycle) throws Exception {
            String taskId = upload(key, "B");
            JsonNode analysed = call(
                    "sync_video_analysis (waits)",
                    false,
                    () -> UploadBenchmark.postJson(server, key, "/sync_video_analysis", Map.of("taskid", taskId)));
            String payload = JSON.writeValueAsString(Map.of(
                    "taskid", taskId, "genre", genre, "seed", cycle, "with_vocals", vocals, "multitrack", stems));
            JsonNode generated = call(
                    "sync_generate",
                    false,
                    () -> UploadBenchmark.postMultipart(
                            server,
                            key,
                            "/sync_generate",
                            Map.of("analysis", analysed.get("analysis").toString(), "payload", payload)));
            JsonNode executed = call(
                    "sync_execute",
                    false,
                    () -> UploadBenchmark.postMultipart(
                            server,
                            key,
                            "/sync_execute",
                            Map.of(
                                    "plan",
                                    generated.get("plan").toString(),
                                    "payload",
                                    JSON.writeValueAsString(Map.of("taskid", taskId)))));
            JsonNode finished = awaitJob(
                    key,
                    "/sync_status",
                    "sync_status",
                    Map.of("execid", executed.get("execid").asText()));
            downloadAll(finished, stems);
        }

        /** Polls a job's status every half second, as a client would, until it ends; an error counts against the run. */
        private JsonNode awaitJob(String key, String path, String kind, Map<String, String> body) throws Exception {
            while (true) {
                if (!running) {
                    throw new Abandoned();
                }
                JsonNode status = call(kind, true, () -> UploadBenchmark.postJson(server, key, path, body));
                switch (status.path("status").asText()) {
                    case "finished" -> {
                        jobsFinished.incrementAndGet();
                        return status;
                    }
                    case "error", "inactive" -> {
                        jobsFailed.incrementAndGet();
                        if (jobErrors.size() < 5) {
                            jobErrors.add(status.toString());
                        }
                        throw new IllegalStateException("job ended " + status);
                    }
                    default -> Thread.sleep(POLL_MILLIS);
                }
            }
        }

        /**
         * Every signed link a finished status names (the video, results, audio, stems, MIDI, ...), read to the end; the
         * stems only when they were asked for (status names their link either way, and it answers 404 without them).
         */
        private void downloadAll(JsonNode status, boolean stems) throws Exception {
            List<String> urls = new ArrayList<>();
            status.path("links").properties().forEach(link -> {
                if (stems || !link.getKey().equals("stems")) {
                    urls.add(link.getValue().asText());
                }
            });
            if (urls.isEmpty()) {
                for (String field : List.of("url", "queryurl")) {
                    if (status.hasNonNull(field)) {
                        urls.add(status.get(field).asText());
                    }
                }
            }
            for (String url : urls) {
                bytesDownloaded.addAndGet(call("download", false, () -> getBytes(url, null)));
            }
        }

        private long getBytes(String url, String key) throws Exception {
            var request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(CALL_TIMEOUT_SECONDS));
            if (key != null) {
                request.header("Authorization", "Bearer " + key);
            }
            HttpResponse<InputStream> response =
                    CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            long n;
            try (var body = response.body()) {
                n = body.transferTo(OutputStream.nullOutputStream());
            }
            if (response.statusCode() != 200) {
                throw new UploadBenchmark.Refused(URI.create(url).getPath(), response.statusCode(), "");
            }
            return n;
        }

        // ---------------------------------------------------------------- timing

        /** Times one call of {@code kind} and counts its answer (200, another status, or none: a timeout or a reset). */
        private <T> T call(String kind, boolean control, Callable<T> call) throws Exception {
            long start = System.nanoTime();
            try {
                T result = call.call();
                calls.record(kind, control, (System.nanoTime() - start) / 1e6, 200, (start - loadStart) / 60e9);
                return result;
            } catch (UploadBenchmark.Refused e) {
                calls.record(kind, control, (System.nanoTime() - start) / 1e6, e.status, (start - loadStart) / 60e9);
                calls.note(kind, e.getMessage());
                throw e;
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                calls.record(kind, control, (System.nanoTime() - start) / 1e6, -1, (start - loadStart) / 60e9);
                calls.note(kind, e.toString());
                throw e;
            }
        }

        // ---------------------------------------------------------------- sampling

        private void sampleUntilTheEnd() throws Exception {
            int[] threads = {Integer.MAX_VALUE, 0};
            int[] fds = {Integer.MAX_VALUE, 0};
            long next = loadStart;
            double cpuBefore = server.cpuSeconds();
            long cpuAt = System.nanoTime();
            out.printf(
                    "%n%6s %5s %6s %9s %8s %12s %12s %9s %5s %6s %9s %9s %s%n",
                    "minute",
                    "load",
                    "server",
                    "heap",
                    "RSS",
                    "threads",
                    "fds",
                    "data",
                    "jobs",
                    "calls",
                    "ctl p99",
                    "ctl max",
                    "listeners behind >1 s");
            out.printf(
                    "%6s %5s %6s %9s %8s %12s %12s %9s %5s %6s %9s %9s%n",
                    "",
                    "1 min",
                    "cores",
                    "MB afterGC",
                    "MB",
                    "floor/peak",
                    "floor/peak",
                    "MB",
                    "done",
                    "ctl",
                    "ms",
                    "ms");
            while (true) {
                long now = System.nanoTime();
                threads[0] = Math.min(threads[0], server.threads());
                threads[1] = Math.max(threads[1], server.threads());
                int open = server.openFiles();
                fds[0] = Math.min(fds[0], open);
                fds[1] = Math.max(fds[1], open);
                if (now >= next + options.sampleSeconds() * 1_000_000_000L || now >= deadline) {
                    double cpu = server.cpuSeconds();
                    double cores = (cpu - cpuBefore) / ((now - cpuAt) / 1e9);
                    cpuBefore = cpu;
                    cpuAt = now;
                    long heap = heapAfterGc();
                    server.startConcurrentGc(); // marks the old generation, so the next period's collections free
                    // what died there
                    double[] control = calls.drainInterval();
                    var sample = new Sample(
                            (now - loadStart) / 60e9,
                            load(),
                            cores,
                            heap,
                            server.residentBytes(),
                            threads[0],
                            threads[1],
                            fds[0],
                            fds[1],
                            directoryBytes(server.dataDir),
                            jobsFinished.get(),
                            control.length,
                            percentile(control, 0.99),
                            control.length == 0 ? Double.NaN : control[control.length - 1],
                            behind());
                    samples.add(sample);
                    out.printf(
                            "%6.1f %5.2f %6.2f %9.1f %8.1f %5d / %-5d %5d / %-5d %9.1f %5d %6d %9.1f %9.1f %d of %d%n",
                            sample.minute(),
                            sample.load(),
                            sample.cores(),
                            sample.heap() / 1e6,
                            sample.rss() / 1e6,
                            sample.threadsFloor(),
                            sample.threadsPeak(),
                            sample.fdsFloor(),
                            sample.fdsPeak(),
                            sample.dataBytes() / 1e6,
                            sample.jobs(),
                            sample.controlCalls(),
                            sample.controlP99(),
                            sample.controlMax(),
                            sample.behind(),
                            listeners.size()
                                    + steeredListeners.stream()
                                            .filter(l -> !l.closed.get())
                                            .count());
                    threads[0] = fds[0] = Integer.MAX_VALUE;
                    threads[1] = fds[1] = 0;
                    next = now;
                    if (now >= deadline) {
                        return;
                    }
                }
                Thread.sleep(Math.max(1, Math.min(5000, (deadline - System.nanoTime()) / 1_000_000)));
            }
        }

        private long gcLogOffset;
        private String longestPause = "";
        private double longestPauseMs;
        private int pauses;

        /**
         * The lowest heap after any collection of the period just ended, from the server's GC log (young, mixed,
         * remark, cleanup: after the concurrent cycle the sampler starts each period, about the live heap); the heap
         * in use now when the period had no collection.
         */
        private long heapAfterGc() throws IOException, InterruptedException {
            long lowest = Long.MAX_VALUE;
            try (var file = new RandomAccessFile(gcLog.toFile(), "r")) {
                file.seek(gcLogOffset);
                String line;
                while ((line = file.readLine()) != null) {
                    gcLogOffset = file.getFilePointer();
                    var m = PAUSE.matcher(line);
                    if (m.find()) {
                        pauses++;
                        lowest = Math.min(lowest, Long.parseLong(m.group(3)) << 20);
                        double ms = Double.parseDouble(m.group(5));
                        if (ms > longestPauseMs) {
                            longestPauseMs = ms;
                            longestPause = line.strip();
                        }
                    }
                }
            } catch (FileNotFoundException e) {
                // no collection yet
            }
            return lowest != Long.MAX_VALUE ? lowest : server.heapUsed();
        }

        /** Listeners (plain and steered) that are more than a second behind real time now. */
        private int behind() {
            int n = 0;
            for (StreamListener l :
                    (Iterable<StreamListener>) Stream.concat(listeners.stream(), steeredListeners.stream())::iterator) {
                n += !l.closed.get() && l.firstByte >= 0 && (System.nanoTime() - l.firstByte) / 1e9 - l.received() > 1.0
                        ? 1
                        : 0;
            }
            return n;
        }

        // ---------------------------------------------------------------- report

        private void report() throws IOException {
            double minutes = (System.nanoTime() - loadStart) / 60e9;
            out.printf(
                    "%nran %.1f min; %d jobs finished, %d ended in error, %d cycles abandoned at the end; %.0f MB downloaded; "
                            + "steering users renewed their streams %d times%n",
                    minutes,
                    jobsFinished.get(),
                    jobsFailed.get(),
                    cyclesAbandoned.get(),
                    bytesDownloaded.get() / 1e6,
                    streamsRenewed.get());

            // The warm-up (server start, 48 streams set up, the first jobs' instruments read) is left out of the
            // judgement, as for flatness below; the whole run is printed beside it.
            double m = options.minutes();
            double[] baseline = m >= 25 ? new double[] {5, 15} : new double[] {0.25 * m, 0.5 * m};
            double warm = baseline[0];
            out.printf(
                    "%ncalls (client-side, from the request to the whole answer; * = control, held to p99 < %.0f ms from minute %.1f on)%n",
                    CONTROL_P99_MS, warm);
            out.printf(
                    "%-36s %7s %8s %8s %9s | %9s %8s %9s  %s%n",
                    "", "whole", "run", "", "", "from", "minute", String.format("%.1f", warm), "");
            out.printf(
                    "%-36s %7s %8s %8s %9s | %9s %8s %9s  %s%n",
                    "kind", "n", "p50 ms", "p99 ms", "max ms", "n", "p99 ms", "max ms", "answers");
            boolean controlOk = true;
            List<String> slow = new ArrayList<>();
            var ordered =
                    new TreeMap<String, Kind>(Comparator.comparing((String name) -> !calls.kinds.get(name).control)
                            .thenComparing(Comparator.naturalOrder()));
            ordered.putAll(calls.kinds);
            for (var entry : ordered.entrySet()) {
                Kind k = entry.getValue();
                double[] ms = k.sorted(Double.NEGATIVE_INFINITY);
                double[] warmed = k.sorted(warm);
                double p99 = percentile(warmed, 0.99);
                if (k.control && p99 >= CONTROL_P99_MS) {
                    controlOk = false;
                    slow.add(entry.getKey());
                }
                out.printf(
                        "%-36s %7d %8.1f %8.1f %9.1f | %9d %8.1f %9.1f  %s%n",
                        (k.control ? "* " : "  ") + entry.getKey(),
                        ms.length,
                        percentile(ms, 0.5),
                        percentile(ms, 0.99),
                        ms.length == 0 ? Double.NaN : ms[ms.length - 1],
                        warmed.length,
                        p99,
                        warmed.length == 0 ? Double.NaN : warmed[warmed.length - 1],
                        k.statuses);
            }
            double[] allControl = calls.allControl(Double.NEGATIVE_INFINITY);
            double[] allWarm = calls.allControl(warm);
            out.printf(
                    "%-36s %7d %8.1f %8.1f %9.1f | %9d %8.1f %9.1f%n",
                    "* all control calls",
                    allControl.length,
                    percentile(allControl, 0.5),
                    percentile(allControl, 0.99),
                    allControl.length == 0 ? Double.NaN : allControl[allControl.length - 1],
                    allWarm.length,
                    percentile(allWarm, 0.99),
                    allWarm.length == 0 ? Double.NaN : allWarm[allWarm.length - 1]);
            calls.notes.forEach((kind, notes) -> out.printf("  %s, first refusals or failures: %s%n", kind, notes));
            jobErrors.forEach(e -> out.println("  a job ended in error: " + e));

            long serverErrors = calls.count(s -> s >= 500);
            long noAnswer = calls.count(s -> s < 0);
            out.println();
            listenerReport("listeners", listeners);
            listenerReport("steered listeners (their streams renewed now and then)", steeredListeners);
            out.printf(
                    "server log: %d lines with ERROR or an exception%s%n",
                    server.errorLines.get(), server.firstErrors.isEmpty() ? "" : "; first: " + server.firstErrors);
            gcReport();

            // Flatness: the warmed-up window against the last one.
            double[] last =
                    m >= 25 ? new double[] {m - 10, Double.MAX_VALUE} : new double[] {0.75 * m, Double.MAX_VALUE};
            List<Sample> base = samples.stream()
                    .filter(s -> s.minute() >= baseline[0] && s.minute() < baseline[1])
                    .toList();
            List<Sample> end =
                    samples.stream().filter(s -> s.minute() >= last[0]).toList();
            List<Sample> warmed =
                    samples.stream().filter(s -> s.minute() >= baseline[0]).toList();
            out.printf(
                    "%nflat? mean of minutes %.1f-%.1f (%d samples, after the warm-up) against the last %s (%d samples); slope from minute %.1f on, per hour%s%n",
                    baseline[0],
                    baseline[1],
                    base.size(),
                    m >= 25 ? "10 minutes" : "quarter",
                    end.size(),
                    baseline[0],
                    m >= 25 ? "" : " (a short run: a smoke test of the benchmark, not a soak)");
            out.printf("%-26s %12s %12s %9s %14s%n", "", "warmed up", "last", "change", "slope / hour");
            boolean heapOk = flat(
                    "heap after GC, MB", base, end, warmed, s -> s.heap() / 1e6, (b, e) -> e <= b * (1 + HEAP_GROWTH));
            flat("RSS, MB (not judged)", base, end, warmed, s -> s.rss() / 1e6, null);
            boolean threadsOk = flat(
                    "threads (floor)",
                    base,
                    end,
                    warmed,
                    s -> s.threadsFloor(),
                    (b, e) -> e - b <= Math.max(THREAD_NOISE, COUNT_NOISE * b));
            boolean fdsOk = flat(
                    "file descriptors (floor)",
                    base,
                    end,
                    warmed,
                    s -> s.fdsFloor(),
                    (b, e) -> e - b <= Math.max(FD_NOISE, COUNT_NOISE * b));
            flat("data directory, MB", base, end, warmed, s -> s.dataBytes() / 1e6, null);
            if (jobsFinished.get() > 0 && samples.size() > 1) {
                out.printf(
                        "data directory: %.1f MB per finished job (what a job stores; retention removes it after 720 h)%n",
                        (samples.getLast().dataBytes() - samples.getFirst().dataBytes())
                                / 1e6
                                / Math.max(
                                        1,
                                        jobsFinished.get() - samples.getFirst().jobs()));
            }

            int cutOff = (int) Stream.concat(listeners.stream(), steeredListeners.stream())
                    .filter(l -> l.endedEarly)
                    .count();
            List<String[]> verdicts = List.of(
                    verdict(
                            controlOk,
                            "p99 of every control call < %.0f ms from minute %.1f on%s"
                                    .formatted(CONTROL_P99_MS, warm, slow.isEmpty() ? "" : " (over: " + slow + ")")),
                    verdict(serverErrors == 0, "no 5xx answer (%d)".formatted(serverErrors)),
                    verdict(
                            noAnswer == 0,
                            "every call answered, none timed out or reset (%d without an answer)".formatted(noAnswer)),
                    verdict(
                            jobsFailed.get() == 0 && jobsFinished.get() > 0,
                            "every job finished (%d finished, %d in error)"
                                    .formatted(jobsFinished.get(), jobsFailed.get())),
                    verdict(heapOk, "heap after GC grew at most %.0f %%".formatted(100 * HEAP_GROWTH)),
                    verdict(
                            threadsOk,
                            "threads not growing (noise allowed: %d or %.0f %%)"
                                    .formatted(THREAD_NOISE, 100 * COUNT_NOISE)),
                    verdict(
                            fdsOk,
                            "file descriptors not growing (noise allowed: %d or %.0f %%)"
                                    .formatted(FD_NOISE, 100 * COUNT_NOISE)),
                    verdict(cutOff == 0, "no listener cut off by the server (%d)".formatted(cutOff)));
            out.println();
            verdicts.forEach(v -> out.printf("%s  %s%n", v[0], v[1]));
            boolean pass = verdicts.stream().allMatch(v -> v[0].equals("PASS"));
            out.printf("soak: %s%n", pass ? "PASS" : "FAIL");
        }

        private static String[] verdict(boolean ok, String what) {
            return new String[] {ok ? "PASS" : "FAIL", what};
        }

        private boolean flat(
                String name,
                List<Sample> base,
                List<Sample> end,
                List<Sample> warmed,
                ToDoubleFunction<Sample> figure,
                BiPredicate<Double, Double> ok) {
            if (base.isEmpty() || end.isEmpty()) {
                out.printf("%-26s too few samples%n", name);
                return false;
            }
            double b = base.stream().mapToDouble(figure).average().orElseThrow();
            double e = end.stream().mapToDouble(figure).average().orElseThrow();
            double slope = slopePerHour(warmed, figure);
            boolean passed = ok == null || ok.test(b, e);
            out.printf(
                    "%-26s %12.1f %12.1f %+8.1f%% %+14.1f%s%n",
                    name, b, e, 100 * (e - b) / b, slope, ok == null ? "" : passed ? "  flat" : "  GROWING");
            return passed;
        }

        private void listenerReport(String what, List<StreamListener> ls) {
            if (ls.isEmpty()) {
                return;
            }
            double worstFraction = 1;
            double worstLag = 0;
            double worstGap = 0;
            int underran = 0;
            int gaps = 0;
            int cut = 0;
            for (StreamListener l : ls) {
                double fraction = l.firstByte < 0 ? 0 : l.fraction();
                worstFraction = Math.min(worstFraction, fraction);
                worstLag = Math.max(worstLag, l.maxLag);
                worstGap = Math.max(worstGap, l.maxGapMillis);
                gaps += l.gaps;
                underran += fraction < 0.995 || l.maxLag > 1.0 ? 1 : 0;
                if (l.endedEarly) {
                    cut++;
                    out.printf("  a listener was cut off: %s%n", l.endedBy);
                }
            }
            out.printf(
                    "%s: %d; worst received %.2f %% of real time, worst lag %.0f ms, %d underran (< 99.5 %% or > 1 s behind, as bench live), "
                            + "%d pauses over 1 s between arrivals (longest %.0f ms), %d cut off%n",
                    what, ls.size(), 100 * worstFraction, 1000 * worstLag, underran, gaps, worstGap, cut);
        }

        private static final Pattern PAUSE =
                Pattern.compile("Pause (\\w+).*? (\\d+)M->(\\d+)M\\((\\d+)M\\) ([\\d.]+)ms");

        /** The server's collections from its GC log: how many, and the longest pause. */
        private void gcReport() throws IOException {
            try {
                heapAfterGc(); // the lines since the last sample
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            out.printf(
                    "server GC: %d pauses, the longest %.1f ms (%s); the calls and listeners above include them%n",
                    pauses, longestPauseMs, longestPause);
        }

        private void pause(long millis) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static double slopePerHour(List<Sample> samples, ToDoubleFunction<Sample> figure) {
        int n = samples.size();
        if (n < 2) {
            return Double.NaN;
        }
        double mx = samples.stream().mapToDouble(Sample::minute).average().orElseThrow();
        double my = samples.stream().mapToDouble(figure).average().orElseThrow();
        double sxy = 0;
        double sxx = 0;
        for (Sample s : samples) {
            sxy += (s.minute() - mx) * (figure.applyAsDouble(s) - my);
            sxx += (s.minute() - mx) * (s.minute() - mx);
        }
        return sxx == 0 ? Double.NaN : 60 * sxy / sxx;
    }

    static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int index = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private static double load() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    private static long directoryBytes(Path dir) {
        try (var paths = Files.walk(dir)) {
            return paths.filter(Files::isRegularFile)
                    .mapToLong(p -> {
                        try {
                            return Files.size(p);
                        } catch (IOException e) {
                            return 0; // removed meanwhile
                        }
                    })
                    .sum();
        } catch (IOException | UncheckedIOException e) {
            return -1;
        }
    }

    private record Sample(
            double minute,
            double load,
            double cores,
            long heap,
            long rss,
            int threadsFloor,
            int threadsPeak,
            int fdsFloor,
            int fdsPeak,
            long dataBytes,
            int jobs,
            int controlCalls,
            double controlP99,
            double controlMax,
            int behind) {}

    /** A work cycle cut short by the end of the run. */
    private static final class Abandoned extends Exception {
        Abandoned() {
            super(null, null, false, false);
        }
    }

    /** Every call's time by kind, the statuses answered, and the control calls of the sample period. */
    private static final class Calls {
        final Map<String, Kind> kinds = new ConcurrentHashMap<>();
        final Map<String, List<String>> notes = new ConcurrentHashMap<>();
        private final List<Double> interval = new ArrayList<>();

        void record(String kind, boolean control, double millis, int status, double minute) {
            Kind k = kinds.computeIfAbsent(kind, name -> new Kind(control));
            k.add(millis, status, minute);
            if (control) {
                synchronized (interval) {
                    interval.add(millis);
                }
            }
        }

        void note(String kind, String what) {
            List<String> list = notes.computeIfAbsent(kind, name -> new CopyOnWriteArrayList<>());
            if (list.size() < 3) {
                list.add(what.length() > 300 ? what.substring(0, 300) + "..." : what);
            }
        }

        double[] drainInterval() {
            synchronized (interval) {
                double[] ms = interval.stream()
                        .mapToDouble(Double::doubleValue)
                        .sorted()
                        .toArray();
                interval.clear();
                return ms;
            }
        }

        double[] allControl(double fromMinute) {
            return kinds.values().stream()
                    .filter(k -> k.control)
                    .flatMapToDouble(k -> Arrays.stream(k.sorted(fromMinute)))
                    .sorted()
                    .toArray();
        }

        long count(IntPredicate status) {
            return kinds.values().stream()
                    .mapToLong(k -> {
                        synchronized (k) {
                            return k.statuses.entrySet().stream()
                                    .filter(e -> status.test(e.getKey()))
                                    .mapToLong(Map.Entry::getValue)
                                    .sum();
                        }
                    })
                    .sum();
        }
    }

    private static final class Kind {
        final boolean control;
        private double[] millis = new double[1024];
        /** When each call was made, in minutes since the load started. */
        private double[] minutes = new double[1024];

        private int n;
        /** Answers by HTTP status; -1 for none (a timeout, a reset connection). */
        final Map<Integer, Long> statuses = new TreeMap<>();

        Kind(boolean control) {
            this.control = control;
        }

        synchronized void add(double ms, int status, double minute) {
            if (n == millis.length) {
                millis = Arrays.copyOf(millis, 2 * n);
                minutes = Arrays.copyOf(minutes, 2 * n);
            }
            minutes[n] = minute;
            millis[n++] = ms;
            statuses.merge(status, 1L, Long::sum);
        }

        /** The times of the calls made from {@code fromMinute} on, sorted. */
        synchronized double[] sorted(double fromMinute) {
            double[] copy = new double[n];
            int m = 0;
            for (int i = 0; i < n; i++) {
                if (minutes[i] >= fromMinute) {
                    copy[m++] = millis[i];
                }
            }
            copy = Arrays.copyOf(copy, m);
            Arrays.sort(copy);
            return copy;
        }
    }

    /** Writes what is printed to the console into the report as well. */
    private static final class Tee extends OutputStream {
        private final OutputStream a;
        private final OutputStream b;

        Tee(OutputStream a, OutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public synchronized void write(int c) throws IOException {
            a.write(c);
            b.write(c);
        }

        @Override
        public synchronized void write(byte[] buffer, int off, int len) throws IOException {
            a.write(buffer, off, len);
            b.write(buffer, off, len);
        }

        @Override
        public synchronized void flush() throws IOException {
            a.flush();
            b.flush();
        }
    }
}
