package dev.scorecast.server;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One HTTP/1.1 answer read off a socket by hand, for the tests that write their requests byte by byte
 * (a declared length never sent, a trickled body, a held request): its head, and its body by
 * Content-Length or chunked. {@link #checked} holds it to /openapi.json as {@link Api} holds its
 * answers, so a refusal that only such a request can provoke is checked too.
 */
record RawAnswer(int status, String head, String body) {
    /** Reads the next answer's head and body; an interim 1xx is returned as it is, without a body. */
    static RawAnswer read(InputStream in) throws IOException {
        var head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("the connection closed before the answer's head ended: " + head);
            }
            head.write(b);
        }
        String text = head.toString(StandardCharsets.US_ASCII);
        int status = Integer.parseInt(text.substring(9, 12));
        if (status / 100 == 1 || status == 204 || status == 304) {
            return new RawAnswer(status, text, "");
        }
        String length = header(text, "Content-Length");
        String encoding = header(text, "Transfer-Encoding");
        byte[] body;
        if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
            body = chunked(in);
        } else if (length != null) {
            body = in.readNBytes(Integer.parseInt(length));
        } else {
            body = in.readAllBytes(); // neither: the body ends with the connection
        }
        return new RawAnswer(status, text, new String(body, StandardCharsets.UTF_8));
    }

    /** The status line, "HTTP/1.1 404 Not Found". */
    String statusLine() {
        return head.substring(0, head.indexOf("\r\n"));
    }

    String header(String name) {
        return header(head, name);
    }

    /** This answer, held to /openapi.json as the answer to {@code method path} (OpenApiContract); fails if it is not. */
    RawAnswer checked(String method, String path) {
        OpenApiContract.check(method, path, status, header("Content-Type"), body);
        return this;
    }

    private static String header(String head, String name) {
        String prefix = name.toLowerCase(Locale.ROOT) + ":";
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith(prefix)) {
                return line.substring(prefix.length()).strip();
            }
        }
        return null;
    }

    private static byte[] chunked(InputStream in) throws IOException {
        var body = new ByteArrayOutputStream();
        while (true) {
            String size = line(in);
            int n = Integer.parseInt(size.split(";")[0].strip(), 16);
            if (n == 0) {
                while (!line(in).isEmpty()) {
                    // trailers
                }
                return body.toByteArray();
            }
            body.write(in.readNBytes(n));
            line(in);
        }
    }

    private static String line(InputStream in) throws IOException {
        var line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                throw new EOFException("the connection closed inside a chunked body");
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.US_ASCII);
    }
}
