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
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Issue 4's speed check: a minute of 1080p30 H.264 from "upload complete" to a finished scored
 * video, through a real server process over loopback, as a client sees it. Each run uploads the
 * clip (variant A), then times analysis (job, polled), generate, and execution (job, polled) until
 * {@code finished}, and reads the server's own per-stage times from results.json. Before each run's
 * timed part the ffmpeg CLI decodes the whole clip, pictures and sound ({@link ReferenceDecode}):
 * the total and the analysis are reported as ratios to that reference, measured moments before on
 * the same shared machine, which the absolute times on a busy or slower host are not. Untimed
 * warm-up runs first, until the server is warm ({@link #WARM_JIT_SHARE}): they read the used
 * instruments from the SoundFont and JIT-compile the server's code, which a server that has scored
 * a few videos has done.
 */
final class ScoringBenchmark {
    /** Issue 30: upload complete to finished in at most the time the ffmpeg CLI takes to decode the clip. */
    private static final double GOAL_TOTAL_PER_REFERENCE = 1.0;
    /** Issue 30: the analysis in at most half the time the ffmpeg CLI takes to decode the clip. */
    private static final double GOAL_ANALYSIS_PER_REFERENCE = 0.5;

    private static final double GOAL_RENDER_REAL_TIME = 20;
    /**
     * A warm server: one whose JIT compilers used under this share of its CPU time over a whole
     * scoring run. After one run they still used 2.0 of 14.8 CPU-s (14 %), after two 1.3, three
     * 0.8, four 0.5 and five 0.4 (the thirteenth measurement, docs/BENCHMARKS.md), and the
     * analysis and the execution kept getting faster with it: a server that has scored a few videos
     * is past that, and the issue asks for the figures on a warm server.
     */
    static final double WARM_JIT_SHARE = 0.05;

    private static final long POLL_MILLIS = 50;
    private static final long CHUNK_BYTES = 30L << 20;
    private static final int PARALLEL_CHUNKS = 4;
    /** Other processes' CPU time in one timed run past which that run is flagged as disturbed. */
    private static final double DISTURBED_CPU_SECONDS = 1.0;
    /**
     * The execution's stages in the order they run (results.json → stage_seconds), each with a word
     * of the job's status message while it runs, by which the server's CPU time is split per stage.
     * A stage results.json names that is not listed here is shown after these, without CPU time.
     */
    private static final Map<String, String> STAGE_MESSAGES = orderedMap(
            "compose", "ompos", "render", "Synthesising", "master", "Mixing", "mux", "Putting", "outputs", "Writing");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final OperatingSystemMXBean CPU =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private ScoringBenchmark() {}

    static void run(List<String> args) throws Exception {
        Options options = Options.parse(args);
        Path repository = Path.of(System.getProperty("scorecast.repository", "."))
                .toAbsolutePath()
                .normalize();
        Path media = options.work() != null ? options.work() : repository.resolve("bench/target/bench-media");
        Machine.print(System.out);
        Path clip = TestClips.oneMinute(media);
        System.out.printf(
                "clip:    %s, %.1f MB; genre %s, seed %d; SoundFont %s%n",
                clip.getFileName(),
                Files.size(clip) / 1e6,
                options.genre(),
                options.seed(),
                options.soundFont() == null
                        ? "the server's default (SCORECAST_SOUNDFONT unset: /usr/share/sounds/sf2/FluidR3_GM.sf2)"
                        : options.soundFont());

        System.out.println("reference: " + ReferenceDecode.commandLine() + " (before each run)");
        Path work = Files.createTempDirectory("scorecast-bench-score");
        // Empty: no SCORECAST_SOUNDFONT at all, so bin/scorecast installs FluidR3 and the server uses it, as for users.
        Map<String, String> settings = Map.of(
                "SCORECAST_SOUNDFONT",
                options.soundFont() == null ? "" : options.soundFont().toString());
        try (ServerProcess server = ServerProcess.start(repository, work.resolve("data"), settings)) {
            System.out.println(
                    "\nwarm-up (untimed: a fresh server JVM, the SoundFont's instruments not yet read; until the JIT"
                            + " compiles for under " + Math.round(WARM_JIT_SHARE * 100)
                            + " % of the server's CPU in a run, at most "
                            + options.warmUps() + " runs)");
            for (int w = 1; w <= options.warmUps(); w++) {
                Run warmUp = score(server, clip, options);
                print(-w, warmUp);
                if (warmUp.jitCpu() < WARM_JIT_SHARE * warmUp.serverCpu()) {
                    break;
                }
            }
            List<Run> runs = new ArrayList<>();
            for (int i = 1; i <= options.runs(); i++) {
                Run run = score(server, clip, options);
                print(i, run);
                runs.add(run);
            }
            summarise(runs);
        } finally {
            UploadBenchmark.deleteTree(work);
        }
    }

    /** One upload, then the timed part: analysis, generate, execute, each to its end. */
    private static Run score(ServerProcess server, Path clip, Options options) throws Exception {
        long uploadStart = System.nanoTime();
        String uploadId =
                UploadBenchmark.initialize(server, "A", clip.getFileName().toString(), "video/mp4", Files.size(clip));
        int chunks = UploadBenchmark.sendChunks(server, "A", uploadId, clip, CHUNK_BYTES, PARALLEL_CHUNKS);
        long completeStart = System.nanoTime();
        JsonNode completed = UploadBenchmark.complete(server, "A", uploadId, chunks);
        long completeEnd = System.nanoTime();
        String videoId = completed.get("video_id").asText();
        ReferenceDecode.Timing reference = ReferenceDecode.time(clip);

        // The clock starts at complete's answer.
        long start = System.nanoTime();
        double busyStart = Machine.busySeconds();
        double serverCpuStart = server.cpuSeconds();
        double jitCpuStart = server.jitCpuSeconds();
        long ownCpuStart = CPU.getProcessCpuTime();

        JsonNode analysisJob = UploadBenchmark.postJson(server, "/sync/video_analysis", Map.of("video_id", videoId));
        Job analysis = await(server, analysisJob.get("job_id").asText(), start, null);
        long analysed = System.nanoTime();
        double serverCpuAnalysed = server.cpuSeconds();

        JsonNode plan = UploadBenchmark.postJson(
                server,
                "/sync/generate",
                Map.of(
                        "analysis_id",
                        analysisJob.get("analysis_id").asText(),
                        "genre",
                        options.genre(),
                        "seed",
                        options.seed()));
        long generated = System.nanoTime();

        JsonNode executionJob = UploadBenchmark.postJson(
                server, "/sync/execute", Map.of("plan_id", plan.get("plan_id").asText()));
        Job execution = await(server, executionJob.get("job_id").asText(), generated, server);
        long finished = System.nanoTime();

        double serverCpuFinished = server.cpuSeconds();
        double jitCpu = Math.max(0, server.jitCpuSeconds() - jitCpuStart);
        double serverCpu = serverCpuFinished - serverCpuStart;
        double ownCpu = (CPU.getProcessCpuTime() - ownCpuStart) / 1e9;
        double others = Math.max(0, Machine.busySeconds() - busyStart - serverCpu - ownCpu);
        // The clock stops at finished; the results are read after it.
        JsonNode results = get(execution.last().get("queryurl").asText());
        return new Run(
                reference.wallSeconds(),
                reference.cpuSeconds(),
                seconds(completeStart - uploadStart),
                seconds(completeEnd - completeStart),
                seconds(analysed - start),
                analysis.queuedSeconds(),
                seconds(generated - analysed),
                seconds(finished - generated),
                execution.queuedSeconds(),
                seconds(finished - start),
                results,
                serverCpuAnalysed - serverCpuStart,
                serverCpuFinished - serverCpuAnalysed,
                execution.cpuByMessage(),
                others,
                jitCpu);
    }

    /**
     * Polls {@code /sync/status} every 50 ms until the job is finished; fails on {@code error}.
     * Also notes when the job was first seen past {@code pending} (to 50 ms) and, when
     * {@code cpuOf} is given, the server's CPU time spent under each status message (to 50 ms).
     */
    private static Job await(ServerProcess server, String jobId, long since, ServerProcess cpuOf) throws Exception {
        Double queued = null;
        Map<String, Double> cpuByMessage = new LinkedHashMap<>();
        String message = null;
        double cpuAtMessage = 0;
        while (true) {
            JsonNode status = UploadBenchmark.postJson(server, "/sync/status", Map.of("job_id", jobId));
            String state = status.path("status").asText();
            if (queued == null && !state.equals("pending")) {
                queued = seconds(System.nanoTime() - since);
            }
            String now = state.equals("processing") ? status.path("message").asText() : state;
            if (cpuOf != null && !now.equals(message)) {
                double cpu = cpuOf.cpuSeconds();
                if (message != null) {
                    cpuByMessage.merge(message, cpu - cpuAtMessage, Double::sum);
                }
                message = now;
                cpuAtMessage = cpu;
            }
            switch (state) {
                case "finished" -> {
                    return new Job(status, queued, cpuByMessage);
                }
                case "error", "inactive" ->
                    throw new IllegalStateException("job " + jobId + " ended " + state + ": " + status);
                default -> Thread.sleep(POLL_MILLIS);
            }
        }
    }

    private static JsonNode get(String url) throws Exception {
        HttpResponse<String> response = CLIENT.send(
                HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(url + " answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    private static void print(int index, Run run) {
        String stages = String.join(
                ", ",
                run.stages().stream()
                        .map(s -> "%s %.2f".formatted(s, run.stage(s)))
                        .toList());
        System.out.printf(
                "%s upload %.2f s + complete %.2f s (untimed); analysis %.2f s, generate %.2f s, execute %.2f s [%s; "
                        + "other %.2f], total %.2f s; render %.1fx real time%n",
                index <= 0 ? "warm-up %d:".formatted(-index) : "run %d:  ".formatted(index),
                run.upload(),
                run.complete(),
                run.analysis(),
                run.generate(),
                run.execute(),
                stages,
                run.overhead(),
                run.total(),
                run.renderRealTime());
        System.out.printf(
                "          reference: ffmpeg CLI decodes the clip (pictures and sound) in %.2f s (%.1f CPU-s); total / reference "
                        + "%.2f; analysis / reference %.2f (wall), %.2f (CPU)%n",
                run.reference(),
                run.referenceCpu(),
                run.totalPerReference(),
                run.analysisPerReference(),
                run.analysisCpu() / run.referenceCpu());
        System.out.printf(
                "          server CPU %.1f s (%.2f cores busy; the JIT compiling %.2f s of it): analysis %.1f s (%.2f cores), "
                        + "generate + execute %.1f s (%.2f cores) [%s]%n",
                run.serverCpu(),
                run.serverCpu() / run.total(),
                run.jitCpu(),
                run.analysisCpu(),
                run.analysisCpu() / run.analysis(),
                run.scoringCpu(),
                run.scoringCpu() / (run.generate() + run.execute()),
                String.join(
                        ", ",
                        run.stages().stream()
                                .map(s -> Double.isNaN(run.stageCpu(s))
                                        ? s + " in the one before"
                                        : "%s %.2f".formatted(s, run.stageCpu(s)))
                                .toList()));
        System.out.printf(
                "          other processes' CPU %.1f s%s; jobs left pending %.2f s (analysis), %.2f s (execution)%n",
                run.othersCpu(),
                run.othersCpu() > DISTURBED_CPU_SECONDS ? " (DISTURBED)" : "",
                run.analysisQueued(),
                run.executionQueued());
        JsonNode loudness = run.results().path("loudness");
        JsonNode sync = run.results().path("sync");
        System.out.printf(
                "          loudness %.2f LUFS (target %.1f), true peak %.2f dBTP; sync: %d accents, %d heard, %d within a "
                        + "frame (%.4f s), worst error %s, all within a frame: %s%n",
                loudness.path("integrated_lufs").asDouble(),
                loudness.path("target_lufs").asDouble(),
                loudness.path("true_peak_dbtp").asDouble(),
                sync.path("accents").asInt(),
                sync.path("heard").asInt(),
                sync.path("within_frame").asInt(),
                sync.path("frame_period_seconds").asDouble(),
                sync.path("worst_error_seconds").isNumber()
                        ? "%.3f s".formatted(sync.path("worst_error_seconds").asDouble())
                        : "none",
                sync.path("all_within_frame").asBoolean());
        System.out.printf(
                "          downloads decoded: MP4 %.2f LUFS, %.2f dBTP; MP3 %.2f LUFS, %.2f dBTP%n",
                loudness.path("video_mp4").path("integrated_lufs").asDouble(),
                loudness.path("video_mp4").path("true_peak_dbtp").asDouble(),
                loudness.path("audio_mp3").path("integrated_lufs").asDouble(),
                loudness.path("audio_mp3").path("true_peak_dbtp").asDouble());
        for (JsonNode point : sync.path("points")) {
            if (!point.path("within_frame").asBoolean()) {
                System.out.printf(
                        "          not within a frame: %s at %.3f s (section %d): %s%n",
                        point.path("kind").asText(),
                        point.path("target").asDouble(),
                        point.path("section").asInt(),
                        point.path("error_seconds").isNumber()
                                ? "heard %+.3f s off, rise %.1f dB"
                                        .formatted(
                                                point.path("error_seconds").asDouble(),
                                                point.path("rise_db").asDouble())
                                : "not heard");
            }
        }
    }

    private static void summarise(List<Run> runs) {
        List<String> stages = runs.getFirst().stages();
        System.out.printf(
                "%n%d runs, upload complete -> finished         wall median     min   server CPU median%n",
                runs.size());
        row("analysis (video_analysis -> finished)", runs, Run::analysis, Run::analysisCpu);
        row("generate", runs, Run::generate, null);
        row("execute (execute -> finished)", runs, Run::execute, Run::scoringCpu);
        for (String stage : stages) {
            row("  " + stage, runs, r -> r.stage(stage), r -> r.stageCpu(stage));
        }
        row("  other (queue, inputs, publishing outputs)", runs, Run::overhead, null);
        row("total", runs, Run::total, Run::serverCpu);
        row("reference: ffmpeg -i CLIP -f null -", runs, Run::reference, null);
        double totalPerReference = median(runs, Run::totalPerReference);
        double perReference = median(runs, Run::analysisPerReference);
        System.out.printf(
                "total / reference:    %.2f (median of the runs' ratios; runs %s), %.2f (ratio of medians)%n",
                totalPerReference,
                spread(runs, Run::totalPerReference),
                median(runs, Run::total) / median(runs, Run::reference));
        System.out.printf(
                "analysis / reference: %.2f (median of the runs' ratios; runs %s), %.2f (ratio of medians); CPU time: %.2f (median)%n",
                perReference,
                spread(runs, Run::analysisPerReference),
                median(runs, Run::analysis) / median(runs, Run::reference),
                median(runs, r -> r.analysisCpu() / r.referenceCpu()));
        System.out.printf(
                "server CPU (median) %.1f s: at least %.1f s of wall time on %d cores however well the work overlapped%n",
                median(runs, Run::serverCpu),
                median(runs, Run::serverCpu) / Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().availableProcessors());
        double renderMedian = median(runs, Run::renderRealTime);
        double renderBest = runs.stream().mapToDouble(Run::renderRealTime).max().orElseThrow();
        System.out.printf("render speed: %.1fx real time (median), %.1fx (best)%n", renderMedian, renderBest);
        double others = runs.stream().mapToDouble(Run::othersCpu).sum();
        System.out.printf(
                "other processes' CPU over the timed runs: %.1f s%s%n",
                others,
                others > DISTURBED_CPU_SECONDS * runs.size()
                        ? "; the wall times were disturbed, re-run on a quiet machine"
                        : "");

        double total = median(runs, Run::total);
        System.out.printf(
                "goal: upload complete -> finished <= %.1fx the ffmpeg CLI's decode: %s (%.2f median; %.2f s)%n",
                GOAL_TOTAL_PER_REFERENCE,
                totalPerReference <= GOAL_TOTAL_PER_REFERENCE ? "met" : "NOT MET",
                totalPerReference,
                total);
        System.out.printf(
                "goal: analysis <= %.1fx the ffmpeg CLI's decode: %s (%.2f median)%n",
                GOAL_ANALYSIS_PER_REFERENCE,
                perReference <= GOAL_ANALYSIS_PER_REFERENCE ? "met" : "NOT MET",
                perReference);
        System.out.printf(
                "goal: render >= %.0fx real time: %s (%.1fx median)%n",
                GOAL_RENDER_REAL_TIME, renderMedian >= GOAL_RENDER_REAL_TIME ? "met" : "NOT MET", renderMedian);
        Map<String, Double> parts = new LinkedHashMap<>();
        parts.put("analysis", median(runs, Run::analysis));
        parts.put("generate", median(runs, Run::generate));
        for (String stage : stages) {
            parts.put(stage, median(runs, r -> r.stage(stage)));
        }
        parts.put("other", median(runs, Run::overhead));
        String largest = parts.entrySet().stream()
                .max(Map.Entry.comparingByValue())
                .orElseThrow()
                .getKey();
        System.out.printf(
                "largest share of the total: %s, %.2f s of %.2f s (%.0f %%)%n",
                largest, parts.get(largest), total, 100 * parts.get(largest) / total);
    }

    /** Wall time median and minimum; the server's CPU time, median, when {@code cpu} is given and was measured. */
    private static void row(String name, List<Run> runs, ToDoubleFunction<Run> figure, ToDoubleFunction<Run> cpu) {
        double cpuMedian = cpu == null ? Double.NaN : median(runs, cpu);
        System.out.printf(
                "%-44s %7.2f s %7.2f s %s%n",
                name,
                median(runs, figure),
                runs.stream().mapToDouble(figure).min().orElseThrow(),
                cpu == null ? "" : Double.isNaN(cpuMedian) ? "   (in the row above)" : "%9.2f s".formatted(cpuMedian));
    }

    private static double median(List<Run> runs, ToDoubleFunction<Run> figure) {
        double[] sorted = runs.stream().mapToDouble(figure).sorted().toArray();
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /** The runs' smallest and largest figure, "0.41 to 0.47". */
    private static String spread(List<Run> runs, ToDoubleFunction<Run> figure) {
        double[] sorted = runs.stream().mapToDouble(figure).sorted().toArray();
        return "%.2f to %.2f".formatted(sorted[0], sorted[sorted.length - 1]);
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    private record Job(JsonNode last, Double queuedSeconds, Map<String, Double> cpuByMessage) {
        Job {
            queuedSeconds = queuedSeconds == null ? 0 : queuedSeconds;
        }
    }

    private static Map<String, String> orderedMap(String... keysAndValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    /** One run's figures: client-side wall times, results.json, and CPU time over the timed part. */
    private record Run(
            double reference,
            double referenceCpu,
            double upload,
            double complete,
            double analysis,
            double analysisQueued,
            double generate,
            double execute,
            double executionQueued,
            double total,
            JsonNode results,
            double analysisCpu,
            double scoringCpu,
            Map<String, Double> cpuByMessage,
            double othersCpu,
            double jitCpu) {
        /** The stages results.json names: the known ones in their order, then any others. */
        List<String> stages() {
            List<String> names = new ArrayList<>(STAGE_MESSAGES.keySet().stream()
                    .filter(results.path("stage_seconds")::has)
                    .toList());
            results.path("stage_seconds").fieldNames().forEachRemaining(name -> {
                if (!names.contains(name)) {
                    names.add(name);
                }
            });
            return names;
        }

        /**
         * The server's CPU time while the job's status message named the stage (the last, outputs,
         * also holds the publishing of the outputs up to finished); NaN when it was never seen, which
         * happens when the server did not change the message (its progress is passed on only once it
         * has moved by a percent): that stage's CPU time is then counted in the stage before it.
         */
        double stageCpu(String name) {
            String word = STAGE_MESSAGES.get(name);
            return word == null
                    ? Double.NaN
                    : cpuByMessage.entrySet().stream()
                            .filter(e -> e.getKey().contains(word))
                            .mapToDouble(Map.Entry::getValue)
                            .reduce(Double::sum)
                            .orElse(Double.NaN);
        }

        /** The server's CPU time over the timed part: analysis, then generate and execute. */
        double serverCpu() {
            return analysisCpu + scoringCpu;
        }

        double stage(String name) {
            return results.path("stage_seconds").path(name).asDouble();
        }

        /** Execute time the stages do not account for: the job's pickup, reading its inputs, storing the outputs, polling. */
        double overhead() {
            return execute - stages().stream().mapToDouble(this::stage).sum();
        }

        /** The analysis against the ffmpeg CLI's decode of the clip measured just before it. */
        double analysisPerReference() {
            return analysis / reference;
        }

        /** Upload complete to finished against the ffmpeg CLI's decode of the clip measured just before it. */
        double totalPerReference() {
            return total / reference;
        }

        double renderRealTime() {
            return results.path("duration").asDouble() / stage("render");
        }
    }

    record Options(int runs, int warmUps, Path work, Path soundFont, String genre, int seed) {
        static Options parse(List<String> args) {
            int runs = 3;
            int warmUps = 6;
            Path work = null;
            Path soundFont = null;
            String genre = "house";
            int seed = 7;
            List<String> rest = new ArrayList<>(args);
            while (!rest.isEmpty()) {
                String option = rest.removeFirst();
                switch (option) {
                    case "--runs" -> runs = Integer.parseInt(value(option, rest));
                    case "--warm-ups" -> warmUps = Integer.parseInt(value(option, rest));
                    case "--work" -> work = Path.of(value(option, rest)).toAbsolutePath();
                    case "--soundfont" ->
                        soundFont = Path.of(value(option, rest)).toAbsolutePath();
                    case "--genre" -> genre = value(option, rest);
                    case "--seed" -> seed = Integer.parseInt(value(option, rest));
                    default ->
                        throw new IllegalArgumentException("unknown option " + option + "; options: "
                                + Arrays.asList(
                                        "--runs N",
                                        "--warm-ups MAX",
                                        "--work DIR",
                                        "--soundfont PATH",
                                        "--genre G",
                                        "--seed N"));
                }
            }
            if (runs < 1) {
                throw new IllegalArgumentException("--runs must be at least 1");
            }
            if (warmUps < 1) {
                throw new IllegalArgumentException("--warm-ups must be at least 1");
            }
            return new Options(runs, warmUps, work, soundFont, genre, seed);
        }

        private static String value(String option, List<String> rest) {
            if (rest.isEmpty()) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return rest.removeFirst();
        }
    }
}
