package dev.scorecast.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a figure was measured on. Decoding speed depends on the cores and their vector units, so
 * those are printed with every run; a figure without them cannot be compared with anything.
 */
final class Machine {
    private static final List<String> NOTABLE_FLAGS = List.of("avx2", "avx512f", "sha_ni");

    private Machine() {}

    static void print(PrintStream out) {
        List<String> cpuinfo = readLines(Path.of("/proc/cpuinfo"));
        String model = field(cpuinfo, "model name");
        Set<String> flags = new TreeSet<>(List.of(field(cpuinfo, "flags").split(" ")));
        String vector = String.join(
                ", ",
                NOTABLE_FLAGS.stream()
                        .map(f -> (flags.contains(f) ? "" : "no ") + f)
                        .toList());
        out.printf(
                "machine: %d cores (%s; %s), %.1f GiB, %s %s%n",
                Runtime.getRuntime().availableProcessors(),
                model,
                vector,
                memoryKib() / 1048576.0,
                System.getProperty("os.name"),
                System.getProperty("os.version"));
        out.printf(
                "java:    %s (%s), FFmpeg %s through JavaCPP%n",
                System.getProperty("java.vendor.version", System.getProperty("java.vendor")),
                System.getProperty("java.runtime.version"),
                org.bytedeco.ffmpeg.global.avutil.av_version_info().getString());
        out.printf("date:    %s%n", LocalDate.now());
    }

    /**
     * CPU seconds all processes have used since boot, steal time included (/proc/stat counts in
     * hundredths of a second on Linux); 0 elsewhere. Less this process's own CPU time over a run,
     * it tells whether something else was competing for the cores.
     */
    static double busySeconds() {
        List<String> stat = readLines(Path.of("/proc/stat"));
        if (stat.isEmpty() || !stat.getFirst().startsWith("cpu ")) {
            return 0;
        }
        String[] ticks = stat.getFirst().strip().split("\\s+");
        long busy = 0;
        for (int i : new int[] {1, 2, 3, 6, 7, 8}) { // user nice system irq softirq steal; not idle (4) or iowait (5)
            busy += Long.parseLong(ticks[i]);
        }
        return busy / 100.0;
    }

    private static String field(List<String> lines, String name) {
        for (String line : lines) {
            if (line.startsWith(name) && line.contains(":")) {
                return line.substring(line.indexOf(':') + 1).strip();
            }
        }
        return "unknown";
    }

    private static long memoryKib() {
        String total = field(readLines(Path.of("/proc/meminfo")), "MemTotal");
        return total.equals("unknown") ? 0 : Long.parseLong(total.replaceAll("[^0-9]", ""));
    }

    private static List<String> readLines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            return List.of(); // not Linux: the fields read "unknown"
        }
    }
}
