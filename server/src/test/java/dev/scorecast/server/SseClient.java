package dev.scorecast.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A Server-Sent Events client for tests, reading the stream as EventSource does (fields id, event,
 * data, retry; comment lines; a blank line ends an event) on a virtual thread of its own. The HTTP
 * client runs on virtual threads too, so a test can count the server's platform threads.
 */
final class SseClient implements AutoCloseable {
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .executor(Executors.newVirtualThreadPerTaskExecutor())
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    /** Marks the end of the stream in the queue. */
    private static final Event END = new Event(null, null, null);

    /** One event; {@code name} is "message" when the stream named none. */
    record Event(String id, String name, String data) {}

    final int status;
    final HttpResponse<InputStream> response;
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    final List<String> comments = new CopyOnWriteArrayList<>();
    volatile String retry;
    private volatile boolean ended;

    private SseClient(HttpResponse<InputStream> response) {
        this.response = response;
        this.status = response.statusCode();
        // Held to /openapi.json as Api's answers are: a documented status and media type; an error's body is checked
        // when it is read (error()).
        OpenApiContract.check(response);
        if (status == 200) {
            Thread.ofVirtual().name("sse-client").start(this::read);
        }
    }

    /** GET {@code url} with {@code headers} (e.g. Authorization, Last-Event-ID). */
    static SseClient open(String url, Map<String, String> headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).header("Accept", "text/event-stream");
        headers.forEach(request::header);
        return new SseClient(CLIENT.send(request.GET().build(), HttpResponse.BodyHandlers.ofInputStream()));
    }

    static Map<String, String> bearer(String key) {
        return Map.of("Authorization", "Bearer " + key);
    }

    /** The body of a refused request (the JSON error). */
    String error() throws IOException {
        try (InputStream in = response.body()) {
            String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            OpenApiContract.check(
                    "GET",
                    response.uri().getRawPath(),
                    status,
                    response.headers().firstValue("Content-Type").orElse(null),
                    body);
            return body;
        }
    }

    private void read() {
        try (BufferedReader lines =
                new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            String id = null;
            String name = null;
            StringBuilder data = null;
            for (String line; (line = lines.readLine()) != null; ) {
                if (line.isEmpty()) {
                    if (data != null) {
                        events.add(new Event(id, name == null ? "message" : name, data.toString()));
                    }
                    name = null;
                    data = null;
                } else if (line.startsWith(":")) {
                    comments.add(line);
                } else {
                    int colon = line.indexOf(':');
                    String field = colon < 0 ? line : line.substring(0, colon);
                    String value = colon < 0 ? "" : line.substring(colon + 1).replaceFirst("^ ", "");
                    switch (field) {
                        case "id" -> id = value;
                        case "event" -> name = value;
                        case "data" ->
                            data = data == null
                                    ? new StringBuilder(value)
                                    : data.append('\n').append(value);
                        case "retry" -> retry = value;
                        default -> {}
                    }
                }
            }
        } catch (IOException closed) {
            // closed by the test, or the server went away
        } finally {
            ended = true;
            events.add(END);
        }
    }

    /** The next event within {@code timeout}; null when the stream ended first. Fails when none comes in time. */
    Event next(Duration timeout) throws InterruptedException {
        Event e = events.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (e == null) {
            throw new AssertionError(
                    "no event within " + timeout.toMillis() + " ms (comments so far: " + comments.size() + ")");
        }
        if (e == END) {
            events.add(END);
            return null;
        }
        return e;
    }

    /** Every event until the stream ends, waiting at most {@code timeout} in all. */
    List<Event> untilEnd(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        var out = new ArrayList<Event>();
        for (Event e; (e = next(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())))) != null; ) {
            out.add(e);
        }
        return out;
    }

    boolean ended() {
        return ended;
    }

    /** Hangs up, as a closed browser tab does. */
    @Override
    public void close() throws IOException {
        response.body().close();
    }
}
