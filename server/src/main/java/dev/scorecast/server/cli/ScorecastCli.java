package dev.scorecast.server.cli;

import dev.scorecast.engine.error.ScorecastException;
import dev.scorecast.engine.plan.GenerationOptions;
import dev.scorecast.server.ScorecastServer;
import dev.scorecast.server.config.Role;
import dev.scorecast.server.config.ServerConfig;
import dev.scorecast.server.db.Database;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * The command line: {@code serve}, {@code keys create|list|revoke}, {@code webhooks ...}, {@code analyse}, {@code score}
 * and {@code help}. Usage asked for ({@code help}, {@code --help}, {@code -h}, or {@code --help}
 * after a command) goes to standard output with exit status 0; usage given because the arguments
 * were wrong goes to standard error with exit status 2.
 */
public final class ScorecastCli {
    /** Each command's usage lines, in the order they are listed. */
    private static final Map<String, String> COMMANDS = commands(
            "serve", """
                    scorecast serve [--role api|worker|all]
                                                       run the service until stopped (Ctrl-C or SIGTERM); api nodes answer
                                                       clients and play streams, workers run jobs, all (default) does both""",
            "keys", """
                    scorecast keys create --user NAME  print a new API key for NAME (shown once)
                    scorecast keys list [--user NAME]  key ids, users, when made and revoked (never the secrets)
                    scorecast keys revoke KEY_ID       refuse that key from now on""",
            "webhooks", WebhooksCommand.USAGE,
            "analyse", """
                    scorecast analyse VIDEO [--timeline OUT.png]
                                                       print the analysis JSON; draw it on a time axis""",
            "score", """
                    scorecast score VIDEO -o OUT.mp4 [--genre G] [--seed N] [--vocals] [--voiceover "SCRIPT"]
                                                       score a video with no server (outputs in OUT-outputs/)""",
            "conform", """
                    scorecast conform OLD-outputs/ NEW.mp4 -o NEW-scored.mp4
                                                       score a re-cut keeping the music of the shots it kept (issue 27)""",
            "bench", """
                    scorecast bench upload|analysis|score|live|soak [options]
                                                       the benchmarks (scorecast help bench; docs/BENCHMARKS.md)""",
            "help", """
                    scorecast help [COMMAND]           this text, or one command's (also --help, -h)""");

    private static final String USAGE = "usage:\n"
            + String.join(
                    "\n",
                    COMMANDS.values().stream()
                            .map(u -> u.indent(2).stripTrailing())
                            .toList()) + "\nconfiguration: SCORECAST_* environment variables, see README.md";
    private static final Set<String> HELP = Set.of("help", "--help", "-h");

    private ScorecastCli() {}

    public static void main(String[] args) throws InterruptedException {
        System.exit(run(List.of(args), System.getenv(), System.out, System.err));
    }

    static int run(List<String> args, Map<String, String> env, PrintStream out, PrintStream err)
            throws InterruptedException {
        if (!args.isEmpty() && HELP.contains(args.getFirst())) {
            if (args.size() == 1) {
                out.println(USAGE);
                return 0;
            }
            String command = canonical(args.get(1));
            if (args.size() == 2 && COMMANDS.containsKey(command)) {
                out.println("usage: " + COMMANDS.get(command).strip());
                return 0;
            }
            err.println("unknown command: " + String.join(" ", args.subList(1, args.size())) + "\n" + USAGE);
            return 2;
        }
        if (args.size() >= 2 && COMMANDS.containsKey(canonical(args.getFirst())) && HELP.contains(args.getLast())) {
            out.println("usage: " + COMMANDS.get(canonical(args.getFirst())).strip());
            return 0;
        }
        try {
            if (args.equals(List.of("serve"))) {
                return serve(ServerConfig.from(env), out);
            }
            if (args.size() == 3 && args.get(0).equals("serve") && args.get(1).equals("--role")) {
                return serve(ServerConfig.from(env).withRole(Role.parse(args.get(2), "--role")), out);
            }
            if (!args.isEmpty() && args.getFirst().equals("keys")) {
                return KeysCommand.run(args.subList(1, args.size()), ServerConfig.from(env), out, err);
            }
            if (!args.isEmpty() && args.getFirst().equals("webhooks")) {
                return WebhooksCommand.run(args.subList(1, args.size()), ServerConfig.from(env), out, err);
            }
            if (!args.isEmpty()
                    && (args.getFirst().equals("analyse") || args.getFirst().equals("analyze"))
                    && (args.size() == 2 || args.size() == 4 && args.get(2).equals("--timeline"))) {
                AnalyseCommand.run(Path.of(args.get(1)), args.size() == 4 ? Path.of(args.get(3)) : null, out);
                return 0;
            }
            if (!args.isEmpty() && args.getFirst().equals("score")) {
                return score(args.subList(1, args.size()), env, out, err);
            }
            if (args.size() == 5
                    && args.getFirst().equals("conform")
                    && (args.get(3).equals("-o") || args.get(3).equals("--output"))) {
                ConformCommand.run(
                        Path.of(args.get(1)),
                        Path.of(args.get(2)),
                        Path.of(args.get(4)),
                        ServerConfig.from(env).soundFont(),
                        out);
                return 0;
            }
            if (!args.isEmpty() && args.getFirst().equals("conform")) {
                err.println("conform needs OLD-outputs/ NEW.mp4 -o NEW-scored.mp4\n" + USAGE);
                return 2;
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
        var options = GenerationOptions.DEFAULT
                .withVocals(vocals)
                .withVoiceover(voiceover != null)
                .withGenre(genre)
                .withOriginalAudio(voiceover != null)
                .withSeed(seed)
                .withVoiceoverScript(voiceover);
        ScoreCommand.run(video, output, options, ServerConfig.from(env).soundFont(), out);
        return 0;
    }

    private static String canonical(String command) {
        return command.equals("analyze") ? "analyse" : command;
    }

    private static Map<String, String> commands(String... namesAndUsages) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < namesAndUsages.length; i += 2) {
            map.put(namesAndUsages[i], namesAndUsages[i + 1]);
        }
        return Collections.unmodifiableMap(map);
    }

    private static int serve(ServerConfig config, PrintStream out) throws InterruptedException {
        ScorecastServer server = ScorecastServer.start(config);
        var stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            server.close();
                            stopped.countDown();
                        },
                        "scorecast-shutdown"));
        out.println("Scorecast (" + config.role().wire() + " node " + server.nodeId() + ") is listening on "
                + server.publicUrl() + " (port " + server.port() + ")");
        if (!config.role().servesClients()) {
            out.println("This worker answers only /healthz, /readyz and /metrics; clients use the api nodes.");
            out.flush();
            stopped.await();
            return 0;
        }
        out.println("API description: " + server.publicUrl() + "/openapi.json");
        server.developmentKey()
                .ifPresentOrElse(
                        key -> out.println("Development API key for user \"dev\" (shown only now; keep it): " + key),
                        () -> out.println(
                                "No development key is shown (keys exist in "
                                        + Database.describe(config.dbUrl())
                                        + ", or the database is shared); make one with: bin/scorecast keys create --user NAME"));
        out.flush();
        stopped.await();
        return 0;
    }
}
