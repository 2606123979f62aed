package dev.scorecast.server;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A JSON POST held in its handler until the test sends its body: while held it is counted in flight
 * and holds what its body may cost (RequestsInFlight, MemoryBudget), which the limits tests need as
 * a known state before they probe.
 *
 * <p>It says {@code Expect: 100-continue}, and Jetty answers 100 Continue only when the handler first
 * asks for the body, which is after the before-handler counted and reserved it; {@link #open} returns
 * once that came. Why not send headers and probe until the limit shows: a probe in flight while the
 * held request is counted takes its place, and the held one is refused instead; its 429 or 503 is
 * written only once its body has been drained (ApiErrors.drain), so it never came, the test could not
 * see it, and every later probe fitted (RequestLimitsTest failed 4 of 20 runs under load,
 * RequestsInFlightTest 6 of 20). Nor does a first body byte change that: Jetty 12.1 dispatches a
 * request at its headers (HttpConfiguration's delayDispatchUntilContent is no longer read).
 */
final class HeldRequest implements AutoCloseable {
    private static final String START = "{\"analysis_id\": \"an_nothing\", \"pad\": \"";

    private final Socket socket;
    private final String path;
    private final int length;

    private HeldRequest(Socket socket, String path, int length) {
        this.socket = socket;
        this.path = path;
        this.length = length;
    }

    /**
     * Sends the headers of a POST to {@code path} declaring {@code length} bytes of JSON, and returns
     * once its handler asks for them. Call it with nothing else of the user's in flight, or the held
     * request itself may be the one refused.
     */
    static HeldRequest open(int port, String key, String path, int length) throws IOException {
        if (length < START.length() + 2) {
            throw new IllegalArgumentException("a held body takes at least " + (START.length() + 2) + " bytes");
        }
        Socket socket = new Socket("127.0.0.1", port);
        try {
            socket.setSoTimeout(30_000); // a server that never asks for the body fails the test instead of hanging it
            OutputStream out = socket.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + key
                            + "\r\nContent-Type: application/json\r\nContent-Length: " + length
                            + "\r\nExpect: 100-continue\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String interim = RawAnswer.read(socket.getInputStream()).statusLine();
            if (!interim.equals("HTTP/1.1 100 Continue")) {
                throw new AssertionError(
                        "the held request was answered before its handler asked for its body: " + interim);
            }
            return new HeldRequest(socket, path, length);
        } catch (IOException | RuntimeException | AssertionError e) {
            socket.close();
            throw e;
        }
    }

    /**
     * Sends the body (JSON naming an analysis that does not exist) and answers the status line of the
     * request's response, which is held to /openapi.json (RawAnswer). Javalin runs the after-handlers,
     * which let the request go and give its budget back, before it writes the response: once this
     * returns, the request holds nothing.
     */
    String finish() throws IOException {
        String body = START + "x".repeat(length - START.length() - 2) + "\"}";
        socket.getOutputStream().write(body.getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        return RawAnswer.read(socket.getInputStream()).checked("POST", path).statusLine();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
