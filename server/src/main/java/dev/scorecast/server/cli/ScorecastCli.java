package dev.scorecast.server.cli;

import dev.scorecast.engine.error.ScorecastException;
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
            err.println(args.isEmpty() ? USAGE : "unknown arguments: " + String.join(" ", args) + "\n" + USAGE);
            return 2;
        } catch (ScorecastException e) {
            err.println("scorecast: " + e.getMessage());
            return 2;
        }
    }

    private static int serve(ServerConfig config, PrintStream out) throws InterruptedException {
        ScorecastServer server = ScorecastServer.start(config);
        var stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "scorecast-shutdown"));
        out.println("Scorecast is listening on " + config.publicUrl() + " (port " + server.port() + ")");
        out.println("API description: " + config.publicUrl() + "/openapi.json");
        server.developmentKey().ifPresentOrElse(
                key -> out.println("Development API key for user \"dev\" (shown only now; keep it): " + key),
                () -> out.println("API keys exist in " + config.dbUrl() + "; make another with: bin/scorecast keys create --user NAME"));
        out.flush();
        stopped.await();
        return 0;
    }

}
