package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
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
 * A client that trickles a request body (slow-loris) is cut off once the body's average rate falls
 * under SCORECAST_MIN_REQUEST_BYTES_PER_SECOND, instead of holding a connection and a handler for
 * as long as it likes. Real sockets and real time: the rate is the wire's.
 *
 * <p>Tagged slow (bin/test --all, CI): real sockets on the wall clock (a trickled body).
 */
@Tag("slow")
class SlowBodyTest {
    @TempDir
    Path data;

    @Test
    void aBodyTrickledInIsRefusedWithin408() throws Exception {
        try (TestServer server = TestServer.start(data, Map.of());
                Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /sync/generate HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + server.aliceKey
                            + "\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            long start = System.nanoTime();
            InputStream in = socket.getInputStream();
            // 20 bytes every 100 ms is 200 bytes a second, a fifth of the default minimum (1 KiB a second), for at most
            // 15 s.
            Thread trickle = Thread.ofVirtual().start(() -> {
                try {
                    for (int i = 0; i < 150 && !Thread.currentThread().isInterrupted(); i++) {
                        out.write("{\"aaaaaaaaaaaaaaaaa\"".getBytes(StandardCharsets.US_ASCII), 0, 20);
                        out.flush();
                        Thread.sleep(100);
                    }
                } catch (Exception closed) {
                    // the server hung up: what this test wants
                }
            });
            RawAnswer answer;
            try {
                answer = RawAnswer.read(in);
            } catch (EOFException closed) {
                answer = null; // closed without an answer, which the test also accepts
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            trickle.interrupt();
            String status = answer == null ? "" : answer.statusLine();
            System.out.printf("slow body: answered \"%s\" after %.1f s%n", status, seconds);
            assertTrue(answer == null || answer.status() == 408, "a 408 or a closed connection, got: " + status);
            if (answer != null) {
                answer.checked("POST", "/sync/generate");
            }
            assertTrue(seconds < 12, "cut off within 12 s, took " + seconds);
        }
    }
}
