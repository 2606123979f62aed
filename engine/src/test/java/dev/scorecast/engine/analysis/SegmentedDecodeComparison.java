package dev.scorecast.engine.analysis;

import com.sun.management.OperatingSystemMXBean;
import dev.scorecast.engine.media.FfmpegFrameSource;
import dev.scorecast.engine.media.FrameSource;
import dev.scorecast.engine.media.SegmentedFrameSource;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Manual, not a test: one clip analysed with one decoder and with segments, alternately, printing
 * wall time, process CPU time and the cuts of each; the figures in docs/BENCHMARKS.md, "Sixth
 * measurement", came from it. Arguments: the clip, and how many pairs (2).
 */
public final class SegmentedDecodeComparison {
    public static void main(String[] args) throws Exception {
        Path clip = Path.of(args[0]);
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        VisualOptions options = VisualOptions.DEFAULT;
        var os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        for (int r = 0; r < rounds; r++) {
            for (boolean segmented : new boolean[] {false, true}) {
                long cpu0 = os.getProcessCpuTime();
                long t0 = System.nanoTime();
                VisualAnalysis a;
                try (FrameSource source = segmented
                        ? SegmentedFrameSource.open(clip, options.limits(), options.longSidePixels(), ChangeScreen::new)
                        : FfmpegFrameSource.open(
                                clip, options.limits(), options.longSidePixels(), new ChangeScreen())) {
                    a = VisualAnalyzer.analyze(source, options, f -> {});
                }
                System.out.printf(
                        "%-10s wall %.2f s cpu %.2f s frames %d cuts %s%n",
                        segmented ? "segmented" : "single",
                        (System.nanoTime() - t0) / 1e9,
                        (os.getProcessCpuTime() - cpu0) / 1e9,
                        a.framesDecoded(),
                        a.cuts().stream()
                                        .map(c -> String.format("%d/%s", c.frame(), c.kind()))
                                        .toList() + " motion " + Arrays.hashCode(a.motion()));
            }
        }
    }
}
