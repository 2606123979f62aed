package dev.scorecast.server.api;

import io.javalin.http.Context;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Sends a request on to another node and relays its answer: the status, the headers that describe
 * the content, and the body as it comes, so a live stream passes through chunk by chunk and is never
 * held whole. The relay ends when either side does: the client leaving closes the connection to the
 * other node, which then drops its listener.
 */
public final class NodeRelay implements AutoCloseable {
    /** Marks a forwarded request (its value: the node that forwarded it); the receiver answers it itself. */
    static final String FORWARDED_BY = "X-Scorecast-Forwarded-By";
    /** Nodes share a network: a node that cannot take a connection within this is down. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);
    /** Longest wait for the other node's status line; starting a genre reads its instruments first, which takes seconds at most. */
    static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(15);
    /** A body that stops for this long is given up: live audio never pauses, so the other node hangs. */
    static final Duration STALL_LIMIT = Duration.ofSeconds(10);

    private static final List<String> REQUEST_HEADERS = List.of("Authorization", "Content-Type", "Accept");
    /** Headers about this hop rather than the content, which the servlet container writes itself. */
    private static final Set<String> HOP_HEADERS = Set.of(
            "connection",
            "keep-alive",
            "transfer-encoding",
            "te",
            "trailer",
            "upgrade",
            "proxy-authenticate",
            "proxy-authorization",
            "content-length",
            "date",
            "server");

    private final Supplier<String> self;
    private final HttpClient client;
    private final ScheduledExecutorService stallWatch;

    /** {@code self} is this node's internal URL, sent along so the receiver's logs say where a call came from. */
    public NodeRelay(Supplier<String> self) {
        this.self = self;
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        this.stallWatch = Executors.newSingleThreadScheduledExecutor(
                r -> Thread.ofPlatform().daemon().name("scorecast-relay-stall").unstarted(r));
    }

    /** The other node did not answer: refused the connection, timed out, or broke off before its status line. */
    public static final class Unreachable extends Exception {
        Unreachable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Sends {@code ctx}'s request to the same path and query on {@code nodeUrl} and relays the answer into {@code ctx}. */
    public void forward(Context ctx, String nodeUrl) throws Unreachable, InterruptedException {
        String query = ctx.queryString();
        var request = HttpRequest.newBuilder(
                        URI.create(nodeUrl + ctx.req().getRequestURI() + (query == null ? "" : "?" + query)))
                .timeout(ANSWER_TIMEOUT)
                .header(FORWARDED_BY, self.get());
        for (String name : REQUEST_HEADERS) {
            String value = ctx.header(name);
            if (value != null) {
                request.header(name, value);
            }
        }
        byte[] body = ctx.bodyAsBytes();
        request.method(
                ctx.method().name(),
                body.length == 0 ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        HttpResponse<InputStream> answer;
        try {
            answer = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new Unreachable(
                    e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()), e);
        }
        relay(answer, ctx.res());
    }

    private void relay(HttpResponse<InputStream> answer, HttpServletResponse res) {
        res.setStatus(answer.statusCode());
        answer.headers().map().forEach((name, values) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.equals("content-type")) {
                // Set as the content type, not as a plain header, or Javalin puts its own default in its place.
                res.setContentType(values.getFirst());
            } else if (!HOP_HEADERS.contains(lower)) {
                values.forEach(value -> res.addHeader(name, value));
            }
        });
        AtomicLong reads = new AtomicLong();
        try (InputStream in = answer.body()) {
            ScheduledFuture<?> watch = stallWatch.scheduleAtFixedRate(
                    new StallWatch(in, reads), STALL_LIMIT.toMillis(), STALL_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
            try {
                OutputStream out = res.getOutputStream();
                byte[] buffer = new byte[16 * 1024];
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    reads.incrementAndGet();
                    out.write(buffer, 0, n);
                    // Each read is what the other node flushed (a few audio frames): pass it on now, not when a buffer
                    // fills.
                    out.flush();
                }
            } finally {
                watch.cancel(false);
            }
        } catch (IOException e) {
            // The client left (the write failed), or the other node broke off or stalled (the read failed). Either way
            // the relay is over; closing the answer's body (try-with-resources) closes the other node's connection too.
        }
    }

    /** Closes a relayed body that has not moved since the last look, which unblocks the relay's read. */
    private static final class StallWatch implements Runnable {
        private final InputStream in;
        private final AtomicLong reads;
        private long seen = -1;

        StallWatch(InputStream in, AtomicLong reads) {
            this.in = in;
            this.reads = reads;
        }

        @Override
        public void run() {
            long now = reads.get();
            if (now == seen) {
                try {
                    in.close();
                } catch (IOException ignored) {
                    // closing is all that is wanted
                }
            }
            seen = now;
        }
    }

    @Override
    public void close() {
        stallWatch.shutdownNow();
        client.shutdownNow();
    }
}
