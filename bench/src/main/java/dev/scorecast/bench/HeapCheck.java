package dev.scorecast.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.voice.speech.SileroSpeechDetector;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.lang.ref.Reference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * Whether the analysis of a clip fits in a given heap, measured in a fresh JVM so that neither the
 * benchmark's own earlier runs nor a generous default heap hide what one analysis needs. The child
 * does what the server does for one upload (extract the sound, then analyse) and reports:
 *
 * <ul>
 *   <li>peak heap used: the largest heap occupancy just before a collection; in a heap near the
 *       smallest that works this is close to -Xmx by design, so passing is the real finding;
 *   <li>largest heap after a collection that freed something: an upper bound on what was live at
 *       any time (collections that free nothing, such as G1's evacuation failures in a tiny heap,
 *       report garbage as if it were live and are left out);
 *   <li>heap retained at the end: after a full collection with the finished analysis still held,
 *       i.e. the result and its curves, the only part that may grow with the video's length;
 *   <li>peak resident memory, for FFmpeg's and ONNX Runtime's native buffers, which no -Xmx caps.
 * </ul>
 */
final class HeapCheck {
    /** The hidden subcommand the child runs; not in the usage text, since only the parent calls it. */
    static final String SUBCOMMAND = "analysis-heap";

    private static final String REPORT = "heap-check";
    private static final long MIB = 1024 * 1024;
    private static final long CHILD_TIMEOUT_MINUTES = 15;

    private HeapCheck() {}

    /**
     * @param passed     whether the child finished the analysis
     * @param failure    what the child said went wrong when it did not
     * @param seconds    extraction and analysis, cold (no warm-up); only for orientation
     */
    record Result(
            int xmxMib,
            boolean passed,
            String failure,
            double seconds,
            long peakUsed,
            long maxAfterGc,
            long retained,
            int collections,
            long peakRss) {

        String describe() {
            if (!passed) {
                return "-Xmx%dm: FAILED (%s)".formatted(xmxMib, failure);
            }
            return ("-Xmx%dm: passed in %.1f s; heap peak %.1f MiB, largest after GC %.1f MiB, retained at end %.2f MiB "
                            + "(%d collections); peak RSS %.0f MiB")
                    .formatted(
                            xmxMib, seconds, mib(peakUsed), mib(maxAfterGc), mib(retained), collections, mib(peakRss));
        }
    }

    /** Runs the analysis of {@code video} in a new JVM limited to {@code xmxMib} of heap. */
    static Result inFreshJvm(Path video, Path work, int xmxMib) throws IOException, InterruptedException {
        String java = ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Path wav = work.resolve("heap-check.wav");
        Path log = work.resolve("heap-check.log");
        List<String> command = List.of(
                java,
                "-Xmx" + xmxMib + "m",
                // Fail at once and plainly, rather than limp on in a thread that caught the error.
                "-XX:+ExitOnOutOfMemoryError",
                "--enable-native-access=ALL-UNNAMED",
                // JavaCPP refuses to allocate once the whole process's resident memory passes 4 x -Xmx, which
                // with a tiny heap trips on FFmpeg's native picture buffers and says nothing about the heap.
                // Native memory is reported as peak RSS instead.
                "-Dorg.bytedeco.javacpp.maxPhysicalBytes=0",
                // System properties are not inherited: hand on the model this JVM found (property, variable or
                // default).
                "-D" + SileroSpeechDetector.MODEL_PROPERTY + "=" + SileroSpeechDetector.configuredModel(),
                "-cp",
                System.getProperty("java.class.path"),
                Bench.class.getName(),
                SUBCOMMAND,
                video.toString(),
                wav.toString());
        Process child = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            if (!child.waitFor(CHILD_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                child.destroyForcibly().waitFor();
                return failed(xmxMib, "no answer within " + CHILD_TIMEOUT_MINUTES + " minutes");
            }
            List<String> lines = Files.readAllLines(log);
            for (String line : lines) {
                if (line.startsWith(REPORT + " ")) {
                    return parse(xmxMib, line);
                }
            }
            return failed(xmxMib, "exit " + child.exitValue() + ": " + cause(lines));
        } finally {
            Files.deleteIfExists(wav);
            Files.deleteIfExists(log);
        }
    }

    /** The child: {@code analysis-heap VIDEO WAV}. */
    static void child(List<String> args) {
        Path video = Path.of(args.get(0));
        Path wav = Path.of(args.get(1));
        Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP)
                .map(MemoryPoolMXBean::getName)
                .collect(Collectors.toSet());
        var peakUsed = new AtomicLong();
        var maxAfterGc = new AtomicLong();
        var collections = new AtomicInteger();
        for (var collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) collector)
                    .addNotificationListener(
                            (notification, handback) -> {
                                if (notification
                                        .getType()
                                        .equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
                                    var gc = GarbageCollectionNotificationInfo.from(
                                                    (CompositeData) notification.getUserData())
                                            .getGcInfo();
                                    long before = sum(gc.getMemoryUsageBeforeGc(), heapPools);
                                    long after = sum(gc.getMemoryUsageAfterGc(), heapPools);
                                    peakUsed.accumulateAndGet(before, Math::max);
                                    if (after < before) {
                                        maxAfterGc.accumulateAndGet(after, Math::max);
                                    }
                                    collections.incrementAndGet();
                                }
                            },
                            null,
                            null);
        }
        long start = System.nanoTime();
        var analysis = AnalysisUnderTest.load();
        var info = AnalysisUnderTest.probe(video);
        AnalysisUnderTest.extract(video, wav);
        Analysis result = analysis.analyze(video, wav, AnalysisUnderTest.facts(info));
        double seconds = (System.nanoTime() - start) / 1e9;
        var memory = ManagementFactory.getMemoryMXBean();
        peakUsed.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
        int counted = collections.get();
        System.gc();
        long retained = memory.getHeapMemoryUsage().getUsed();
        Reference.reachabilityFence(result);
        System.out.printf(
                "%s seconds=%.2f peak=%d after=%d retained=%d gcs=%d rss=%d%n",
                REPORT, seconds, peakUsed.get(), maxAfterGc.get(), retained, counted, peakResidentBytes());
    }

    private static Result parse(int xmxMib, String line) {
        Map<String, String> fields = new HashMap<>();
        for (String pair : line.substring(REPORT.length() + 1).split(" ")) {
            String[] kv = pair.split("=", 2);
            fields.put(kv[0], kv[1]);
        }
        return new Result(
                xmxMib,
                true,
                null,
                Double.parseDouble(fields.get("seconds")),
                Long.parseLong(fields.get("peak")),
                Long.parseLong(fields.get("after")),
                Long.parseLong(fields.get("retained")),
                Integer.parseInt(fields.get("gcs")),
                Long.parseLong(fields.get("rss")));
    }

    private static double mib(long bytes) {
        return bytes / (double) MIB;
    }

    /** The line that says what went wrong: the error's own, not the last line of its stack trace. */
    private static String cause(List<String> lines) {
        return lines.stream()
                .filter(l -> l.contains("Error") || l.contains("Exception"))
                .findFirst()
                .or(() -> lines.isEmpty() ? Optional.empty() : Optional.of(lines.getLast()))
                .map(String::strip)
                .orElse("no output");
    }

    private static Result failed(int xmxMib, String why) {
        return new Result(xmxMib, false, why, 0, 0, 0, 0, 0, 0);
    }

    private static long sum(Map<String, MemoryUsage> pools, Set<String> heapPools) {
        return pools.entrySet().stream()
                .filter(e -> heapPools.contains(e.getKey()))
                .mapToLong(e -> e.getValue().getUsed())
                .sum();
    }

    /** VmHWM from /proc: the most resident memory this process has had. */
    private static long peakResidentBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException ignored) {
            // Not Linux: the figure is left out as 0.
        }
        return 0;
    }
}
