package dev.scorecast.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP forwarder on a free port of 127.0.0.1 that a test opens and shuts: open, it forwards each
 * connection to its target; shut, it closes every connection it carries and each new one as soon as
 * it is accepted (a dependency that does not answer). Starts shut.
 */
final class TcpGate implements AutoCloseable {
    private final ServerSocket server;
    private final String targetHost;
    private final int targetPort;
    private final List<Socket> carried = new CopyOnWriteArrayList<>();
    private volatile boolean open;
    private volatile boolean stalled;
    private final List<Socket> held = new CopyOnWriteArrayList<>();

    TcpGate(String targetHost, int targetPort) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        try {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread.ofVirtual().name("tcp-gate").start(this::accept);
    }

    int port() {
        return server.getLocalPort();
    }

    void open() {
        open = true;
    }

    /** Keeps every connection open but passes nothing on, and takes new ones without answering: a database that hangs. */
    void stall() {
        stalled = true;
    }

    /** Passes data on again. */
    void resume() {
        stalled = false;
        for (Socket s : held) {
            quietly(s);
        }
        held.clear();
    }

    /** Refuses from now on and cuts what it carries. */
    void shut() {
        open = false;
        for (Socket s : carried) {
            quietly(s);
        }
        carried.clear();
    }

    private void accept() {
        while (!server.isClosed()) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return;
            }
            if (!open) {
                quietly(client);
                continue;
            }
            if (stalled) {
                held.add(client); // accepted, never answered
                continue;
            }
            try {
                Socket upstream = new Socket(targetHost, targetPort);
                carried.add(client);
                carried.add(upstream);
                pipe(client, upstream);
                pipe(upstream, client);
            } catch (IOException e) {
                quietly(client);
            }
        }
    }

    private void pipe(Socket from, Socket to) {
        Thread.ofVirtual().start(() -> {
            try (InputStream in = from.getInputStream();
                    OutputStream out = to.getOutputStream()) {
                byte[] buffer = new byte[8192];
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    while (stalled) {
                        Thread.sleep(5); // the wire hangs: nothing is passed on
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                // cut: the other side sees it closed
            } finally {
                quietly(from);
                quietly(to);
            }
        });
    }

    private static void quietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() {
        shut();
        try {
            server.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
