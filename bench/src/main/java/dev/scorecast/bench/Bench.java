package dev.scorecast.bench;

import java.util.List;

/** {@code scorecast bench <name> [options]}: benchmarks of a real server process, or of the engine in-process. */
public final class Bench {
    private Bench() {}

    public static void main(String[] args) throws Exception {
        List<String> rest = args.length > 1 ? List.of(args).subList(1, args.length) : List.of();
        switch (args.length == 0 ? "" : args[0]) {
            case "upload" -> UploadBenchmark.run(rest);
            case "analysis" -> AnalysisBenchmark.run(rest);
            case "score" -> ScoringBenchmark.run(rest);
            case "live" -> LiveBenchmark.run(rest);
            case "soak" -> SoakBenchmark.run(rest);
            case "capacity" -> CapacityModel.run(rest);
            case "hls" -> HlsBenchmark.run(rest);
            case "chaos" -> ChaosBenchmark.run(rest);
            case "flood" -> FloodBenchmark.run(rest);
            case HeapCheck.SUBCOMMAND -> HeapCheck.child(rest);
            default -> {
                boolean asked =
                        args.length > 0 && (args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help"));
                (asked ? System.out : System.err).println("""
                        usage: scorecast bench upload [--size-mib 1024] [--chunk-mib 30] [--parallel 4] [--variant A|B]
                               scorecast bench analysis [--runs 3] [--work DIR] [--skip-long]
                               scorecast bench score [--runs 3] [--warm-ups 6] [--work DIR] [--soundfont PATH] [--genre house] [--seed 7]
                               scorecast bench live [--streams 24,48,64] [--seconds 60] [--mode shared|private] [--soundfont SF2]
                               scorecast bench soak [--minutes 60] [--listeners 48] [--report FILE] [--workers 2] [--steerers 4] [--sample-seconds 60] [--pause-seconds 15]
                               scorecast bench hls [--listeners 1000] [--seconds 60] [--experience house-rooftop] [--base URL]
                               scorecast bench capacity [--jobs-per-hour 60,250,1000,4000] [--minutes 1.5] [--cores 2] [--slots 2] [--seed 16]
                               scorecast bench chaos [--campaigns pg-restart-fast,pg-restart-immediate,pg-pause,s3-pause,s3-restart,disk-full,clock-ahead]
                                                     [--seed 20261127] [--users 2] [--warm-seconds 20] [--fault-seconds 30] [--settle-seconds 300]
                               scorecast bench flood [--streams 24] [--seconds 30] [--in-flight 32] [--seed 20261127]""");
                System.exit(asked ? 0 : 2);
            }
        }
    }
}
