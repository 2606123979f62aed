package dev.scorecast.server.cli;

import dev.scorecast.engine.error.ScorecastException;
import dev.scorecast.engine.plan.GenerationOptions;
import dev.scorecast.server.ScorecastServer;
import dev.scorecast.server.auth.ApiKeys;
import dev.scorecast.server.config.ServerConfig;
import dev.scorecast.server.db.Database;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/** {@code scorecast serve} and {@code scorecast keys create --user NAME}. */
public final class ScorecastCli {
    private static final String USAGE = """
            usage: scorecast serve                    run the service until stopped (Ctrl-C or SIGTERM)
                   scorecast keys create --user NAME  print a new API key for NAME (shown once)
                   scorecast analyse VIDEO [--timeline OUT.png]
                                                      print the analysis JSON; draw it on a time axis
                   scorecast score VIDEO -o OUT.mp4 [--genre G] [--seed N] [--vocals] [--voiceover "SCRIPT"]
                                                      score a video with no server (outputs in OUT-outputs/)
            configuration: SCORECAST_* environment variables, see README.md""";

    private ScorecastCli() {}

    public static void main(String[] args) throws InterruptedException {
        System.exit(run(List.of(args), System.getenv(), System.out, System.err));
    }

    static int run(List<String> args, Map<String, String> env, PrintStream out, PrintStream err) throws InterruptedException {
        try {
            if (args.equals(List.of("serve"))) {
                return serve(ServerConfig.from(env), out);
            }
            if (args.size() == 4 && args.subList(0, 3).equals(List.of("keys", "create", "--user"))) {
                ServerConfig config = ServerConfig.from(env);
                try (Database database = Database.open(config.dbUrl())) {
                    out.println(new ApiKeys(database).create(args.get(3)));
                }
                return 0;
            }
            if (!args.isEmpty() && (args.getFirst().equals("analyse") || args.getFirst().equals("analyze"))
                    && (args.size() == 2 || args.size() == 4 && args.get(2).equals("--timeline"))) {
                AnalyseCommand.run(Path.of(args.get(1)), args.size() == 4 ? Path.of(args.get(3)) : null, out);
                return 0;
            }
            if (!args.isEmpty() && args.getFirst().equals("score")) {
                return score(args.subList(1, args.size()), env, out, err);
            }
            err.println(args.isEmpty() ? USAGE : "unknown arguments: " + String.join(" ", args) + "\n" + USAGE);
            return 2;
        } catch (ScorecastException e) {
            err.println("scorecast: " + e.getMessage());
            return 2;
        }
    }

    private static int score(List<String> args, Map<String, String> env, PrintStream out, PrintStream err) {
        Path video = null;
        Path output = null;
        String genre = null;
        Long seed = null;
        boolean vocals = false;
        String voiceover = null;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            boolean hasValue = i + 1 < args.size();
            switch (arg) {
                case "-o", "--output" -> output = hasValue ? Path.of(args.get(++i)) : null;
                case "--genre" -> genre = hasValue ? args.get(++i) : null;
                case "--vocals" -> vocals = true;
                case "--voiceover" -> voiceover = hasValue ? args.get(++i) : null;
                case "--seed" -> {
                    try {
                        seed = hasValue ? Long.parseLong(args.get(++i)) : null;
                    } catch (NumberFormatException e) {
                        err.println("--seed must be a whole number\n" + USAGE);
                        return 2;
                    }
                }
                default -> {
                    if (video != null || arg.startsWith("-")) {
                        err.println("unknown argument: " + arg + "\n" + USAGE);
                        return 2;
                    }
                    video = Path.of(arg);
                }
            }
        }
        if (video == null || output == null) {
            err.println("score needs a video and -o OUT.mp4\n" + USAGE);
            return 2;
        }
        var options = new GenerationOptions(vocals, voiceover != null, false, genre, voiceover != null, false, false, true, seed, voiceover,
                null, null);
        ScoreCommand.run(video, output, options, ServerConfig.from(env).soundFont(), out);
        return 0;
    }

    private static int serve(ServerConfig config, PrintStream out) throws InterruptedException {
        ScorecastServer server = ScorecastServer.start(config);
        var stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "scorecast-shutdown"));
        out.println("Scorecast is listening on " + server.publicUrl() + " (port " + server.port() + ")");
        out.println("API description: " + server.publicUrl() + "/openapi.json");
        server.developmentKey().ifPresentOrElse(
                key -> out.println("Development API key for user \"dev\" (shown only now; keep it): " + key),
                () -> out.println("API keys exist in " + config.dbUrl() + "; make another with: bin/scorecast keys create --user NAME"));
        out.flush();
        stopped.await();
        return 0;
    }

}
