package dev.scorecast.server.webhooks;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * A webhook receiver for tests: the JDK's HTTP server on 127.0.0.1 and a free port, keeping every
 * request it gets and answering each with the next status of a script (then the last one, again).
 */
public final class Receiver implements AutoCloseable {
    /** One request as it arrived. */
    public record Received(String method, String path, Map<String, List<String>> headers, byte[] body) {
        public String header(String name) {
            for (var e : headers.entrySet()) {
                if (e.getKey().equalsIgnoreCase(name)) {
                    return e.getValue().getFirst();
                }
            }
            return null;
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final HttpServer server;
    private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
    private final List<Received> all = new ArrayList<>();
    private final ConcurrentLinkedQueue<Integer> script = new ConcurrentLinkedQueue<>();
    private volatile int then = 200;

    private Receiver() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            var request = new Received(
                    exchange.getRequestMethod(),
                    exchange.getRequestURI().toString(),
                    Map.copyOf(exchange.getRequestHeaders()),
                    body);
            synchronized (all) {
                all.add(request);
            }
            received.add(request);
            Integer status = script.poll();
            byte[] answer = "ok".getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(status == null ? then : status, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
    }

    public static Receiver start() {
        return new Receiver();
    }

    /** Answers the next requests with {@code statuses} in turn, then with {@code after} from then on. */
    public Receiver answer(int after, int... statuses) {
        for (int status : statuses) {
            script.add(status);
        }
        then = after;
        return this;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    /** The next request, waiting at most {@code timeout}; fails when none comes. */
    public Received next(Duration timeout) throws InterruptedException {
        Received r = received.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (r == null) {
            throw new AssertionError("no webhook arrived within " + timeout.toMillis() + " ms");
        }
        return r;
    }

    /** Requests until {@code count} have arrived (in all), waiting at most {@code timeout} in all. */
    public List<Received> await(IntSupplier count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (all().size() < count.getAsInt()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("only " + all().size() + " of " + count.getAsInt()
                        + " webhooks arrived within " + timeout.toMillis() + " ms");
            }
            Thread.sleep(10);
        }
        return all();
    }

    public List<Received> all() {
        synchronized (all) {
            return List.copyOf(all);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
