package dev.scorecast.bench;

import java.util.List;

/** {@code scorecast bench <name> [options]}: benchmarks that drive a real server process. */
public final class Bench {
    private Bench() {}

    public static void main(String[] args) throws Exception {
        List<String> rest = args.length > 1 ? List.of(args).subList(1, args.length) : List.of();
        switch (args.length == 0 ? "" : args[0]) {
            case "upload" -> UploadBenchmark.run(rest);
            default -> {
                System.err.println("""
                        usage: scorecast bench upload [--size-mib 1024] [--chunk-mib 30] [--parallel 4] [--variant A|B]""");
                System.exit(2);
            }
        }
    }
}
