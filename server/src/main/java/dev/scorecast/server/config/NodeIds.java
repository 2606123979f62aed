package dev.scorecast.server.config;

import java.io.IOException;
import java.net.InetAddress;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Node ids and who may take over what a node held. A node with a fixed port is {@code HOST:PORT}
 * (a restart holds the same id); one on port 0 (tests, one-off runs) is {@code HOST:pidN-RANDOM}. Start-up
 * recovery takes over what this node's own id held, and what a {@code HOST:pidN-...} id of this same
 * host held when process N no longer runs; never the work of a node that may be alive.
 */
public final class NodeIds {
    private static final String HOSTNAME = hostname();
    private static final Pattern PROCESS_ID = Pattern.compile(Pattern.quote(HOSTNAME) + ":pid(\\d+)-[0-9a-f]+");

    private NodeIds() {}

    /** The default id: this host and its fixed port, or this process on port 0. */
    public static String defaultId(int port) {
        // On port 0 a suffix tells apart several servers in one process (tests run two side by side).
        return HOSTNAME + ":"
                + (port != 0
                        ? Integer.toString(port)
                        : "pid" + ProcessHandle.current().pid() + "-"
                                + UUID.randomUUID().toString().substring(0, 8));
    }

    /** Whether a node starting as {@code self} may take over what {@code holder} held. */
    public static boolean mayTakeOver(String self, String holder) {
        if (holder == null) {
            return false;
        }
        if (holder.equals(self)) {
            return true;
        }
        var m = PROCESS_ID.matcher(holder);
        if (!m.matches()) {
            return false;
        }
        long pid = Long.parseLong(m.group(1));
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        return pid != ProcessHandle.current().pid()
                && process.map(p -> !p.isAlive()).orElse(true);
    }

    private static String hostname() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }
}
