package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Headers sent a byte at a time (slow-loris) are cut off SCORECAST_HEADER_TIMEOUT_SECONDS after
 * their first byte; Jetty's idle timeout alone let them run, since every byte renews it. A
 * kept-alive connection quiet between two requests is not a slow header. Real sockets, real time.
 *
 * <p>Tagged slow (bin/test --all, CI): real sockets on the wall clock (a byte a second).
 */
@Tag("slow")
class SlowHeadersTest {
    @TempDir
    Path data;

    @Test
    void headersSentAByteASecondAreCutOff() throws Exception {
        try (TestServer server = TestServer.start(data, Map.of("SCORECAST_HEADER_TIMEOUT_SECONDS", "2"));
                Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            long start = System.nanoTime();
            Thread trickle = Thread.ofVirtual().start(() -> {
                try {
                    out.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    // A header a byte every 500 ms, for at most 15 s: never finished.
                    for (int i = 0; i < 30 && !Thread.currentThread().isInterrupted(); i++) {
                        out.write('X');
                        out.flush();
                        Thread.sleep(500);
                    }
                } catch (IOException | InterruptedException closed) {
                    // the server hung up: what this test wants
                }
            });
            int first;
            try {
                first = in.read();
            } catch (IOException reset) {
                first = -1;
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            trickle.interrupt();
            System.out.printf("slow headers: connection closed after %.1f s (read %d)%n", seconds, first);
            // No answer, so nothing to hold to /openapi.json: Jetty closes a connection whose headers never end
            // before any handler runs.
            assertTrue(first == -1, "the server closed the connection without an answer");
            assertTrue(seconds < 5, "cut off within 5 s of a 2 s header timeout, took " + seconds);
        }
    }

    @Test
    void aKeptAliveConnectionQuietBetweenRequestsIsNotCutOff() throws Exception {
        try (TestServer server = TestServer.start(data, Map.of("SCORECAST_HEADER_TIMEOUT_SECONDS", "1"));
                Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            byte[] request = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
            out.write(request);
            out.flush();
            assertEquals(200, RawAnswer.read(in).checked("GET", "/healthz").status());
            Thread.sleep(3_000); // three header timeouts of silence between requests
            out.write(request);
            out.flush();
            assertEquals(
                    200,
                    RawAnswer.read(in).checked("GET", "/healthz").status(),
                    "the second request on the same connection is answered");
        }
    }
}
