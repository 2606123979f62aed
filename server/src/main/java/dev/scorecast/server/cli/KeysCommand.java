package dev.scorecast.server.cli;

import dev.scorecast.server.auth.ApiKeys;
import dev.scorecast.server.config.ServerConfig;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.downloads.LinkSecrets;
import java.io.PrintStream;
import java.time.Clock;
import java.util.List;

/** {@code scorecast keys create --user NAME | list [--user NAME] | revoke KEY_ID}: works while the server runs. */
final class KeysCommand {
    static final String USAGE = """
                   scorecast keys create --user NAME  print a new API key for NAME (shown once)
                   scorecast keys list [--user NAME]  key ids, users, when made and revoked (never the secrets)
                   scorecast keys revoke KEY_ID       refuse that key from now on (the id from list, or the whole key); within
                                                      seconds its live streams end and the links made with it stop working
                   scorecast keys rotate-link-secret  sign links with a new secret; links signed with the old one keep working
                                                      for SCORECAST_LINK_SECRET_OVERLAP_HOURS (168), then stop""";

    private KeysCommand() {}

    /** The exit code: 0 done, 1 nothing to revoke, 2 bad arguments. */
    static int run(List<String> args, ServerConfig config, PrintStream out, PrintStream err) {
        boolean create =
                args.size() == 3 && args.get(0).equals("create") && args.get(1).equals("--user");
        boolean list = args.equals(List.of("list"))
                || args.size() == 3 && args.get(0).equals("list") && args.get(1).equals("--user");
        boolean revoke = args.size() == 2 && args.get(0).equals("revoke");
        boolean rotate = args.equals(List.of("rotate-link-secret"));
        if (!create && !list && !revoke && !rotate) {
            err.println("usage:\n" + USAGE);
            return 2;
        }
        try (Database database = Database.open(config.dbUrl())) {
            Clock clock = Clock.systemUTC();
            ApiKeys keys = new ApiKeys(database, clock);
            if (rotate) {
                var until = LinkSecrets.rotate(database, clock, config.ops().linkSecretOverlap());
                out.println("rotated the link secret; links signed before keep working until " + until);
                return 0;
            }
            if (create) {
                out.println(keys.create(args.get(2)));
                return 0;
            }
            if (list) {
                out.printf("%-14s %-24s %-24s %s%n", "KEY_ID", "USER", "CREATED", "REVOKED");
                for (ApiKeys.KeyInfo key : keys.list(args.size() == 3 ? args.get(2) : null)) {
                    out.printf(
                            "%-14s %-24s %-24s %s%n",
                            key.keyId(), key.owner(), key.createdAt(), key.revokedAt() == null ? "-" : key.revokedAt());
                }
                return 0;
            }
            if (keys.revoke(args.get(1))) {
                out.println("revoked " + args.get(1) + "; requests with it are refused from now on");
                return 0;
            }
            err.println("scorecast: no key " + args.get(1) + " that is not revoked already; see scorecast keys list");
            return 1;
        }
    }
}
