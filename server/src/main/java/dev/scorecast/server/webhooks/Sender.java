package dev.scorecast.server.webhooks;

import dev.scorecast.engine.core.Ticker;
import dev.scorecast.engine.error.InvalidParameter;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * Sends one webhook: an HTTP/1.1 POST on a socket of its own, to the very address {@link Endpoint#resolve}
 * checked (the name is looked up once, here, at delivery time). Plain sockets rather than an HTTP
 * client library, because each rule is then visible and no library default can undo it: redirects
 * are never followed (a 3xx is a failed attempt), at most {@link #RESPONSE_EXCERPT} bytes of the
 * answer's body are read, and the whole attempt (connect, TLS, send, answer) has one deadline, after
 * which the socket is closed whatever it is doing. TLS checks the certificate against the URL's host
 * name, which is also sent as SNI.
 */
public final class Sender {
    /** Bytes of an answer's body kept (shown in the deliveries list); the rest is never read. */
    public static final int RESPONSE_EXCERPT = 1024;

    private static final int MAX_HEADER_BYTES = 16 * 1024;
    private static final String USER_AGENT = "Scorecast-Webhooks/1";

    private final AddressGuard guard;
    private final AddressGuard.Resolver resolver;
    private final SSLSocketFactory tls;
    private final Duration timeout;

    public Sender(AddressGuard guard, AddressGuard.Resolver resolver, SSLSocketFactory tls, Duration timeout) {
        this.guard = guard;
        this.resolver = resolver;
        this.tls = tls;
        this.timeout = timeout;
    }

    /** Posts {@code body} as JSON to {@code url} with {@code headers}; never throws for anything the receiver does. */
    public Attempt post(String url, Map<String, String> headers, byte[] body) {
        long started = Ticker.SYSTEM.nanos();
        long deadline = started + timeout.toNanos();
        Endpoint endpoint;
        List<InetAddress> addresses;
        try {
            endpoint = Endpoint.parse(url, guard.allowsLocal(), "url");
            addresses = endpoint.resolve(resolver, guard);
        } catch (InvalidParameter | Endpoint.Refused e) {
            return Attempt.failed("refused: " + e.getMessage(), millisSince(started));
        }
        var open = new AtomicReference<Socket>();
        // One deadline for everything: a receiver that reads the body slowly or answers a byte at a time is cut off all
        // the same.
        Thread watchdog = Thread.ofVirtual().name("webhook-deadline").start(() -> {
            try {
                Thread.sleep(Duration.ofNanos(Math.max(0, deadline - Ticker.SYSTEM.nanos())));
                Socket socket = open.get();
                if (socket != null) {
                    socket.close();
                }
            } catch (InterruptedException | IOException ignored) {
                // Done in time, or already closed.
            }
        });
        try (Socket raw = connect(addresses, endpoint.port(), deadline, open)) {
            Socket socket = endpoint.tls() ? secure(raw, endpoint) : raw;
            OutputStream out = socket.getOutputStream();
            out.write(head(endpoint, headers, body.length));
            out.write(body);
            out.flush();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            int status = statusCode(in);
            String response;
            try {
                response = excerpt(in, headers(in));
            } catch (IOException e) {
                response = null; // The status is what counts; an answer whose body never ends keeps it.
            }
            return new Attempt(status, null, millisSince(started), response);
        } catch (IOException e) {
            return Attempt.failed(describe(e, deadline), millisSince(started));
        } finally {
            watchdog.interrupt();
        }
    }

    /**
     * A socket connected to the first of {@code addresses} (each one checked) that accepts, as a
     * browser does with a name that has an IPv6 and an IPv4 address. Each socket is put in
     * {@code open} before it connects, so that the deadline's watchdog can close it.
     */
    private static Socket connect(List<InetAddress> addresses, int port, long deadline, AtomicReference<Socket> open)
            throws IOException {
        IOException last = null;
        for (InetAddress address : addresses) {
            Socket socket = new Socket();
            open.set(socket);
            try {
                socket.connect(new InetSocketAddress(address, port), (int)
                        Math.max(1, (deadline - Ticker.SYSTEM.nanos()) / 1_000_000));
                return socket;
            } catch (ConnectException | NoRouteToHostException e) {
                socket.close();
                last = e; // refused or unreachable there: the next address, if any
            } catch (IOException e) {
                socket.close();
                throw e;
            }
        }
        throw last;
    }

    private Socket secure(Socket raw, Endpoint endpoint) throws IOException {
        SSLSocket socket = (SSLSocket) tls.createSocket(raw, endpoint.lookupName(), endpoint.port(), true);
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        if (!isAddressLiteral(endpoint.lookupName())) {
            parameters.setServerNames(List.of(new SNIHostName(endpoint.lookupName())));
        }
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        return socket;
    }

    private static byte[] head(Endpoint endpoint, Map<String, String> headers, int length) {
        var text = new StringBuilder(512);
        text.append("POST ").append(endpoint.target()).append(" HTTP/1.1\r\n");
        text.append("Host: ").append(endpoint.hostHeader()).append("\r\n");
        text.append("User-Agent: ").append(USER_AGENT).append("\r\n");
        text.append("Content-Type: application/json\r\n");
        text.append("Content-Length: ").append(length).append("\r\n");
        text.append("Connection: close\r\n");
        headers.forEach(
                (name, value) -> text.append(name).append(": ").append(value).append("\r\n"));
        text.append("\r\n");
        return text.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** The final status code; interim 1xx answers (103 Early Hints) are skipped. */
    private static int statusCode(InputStream in) throws IOException {
        for (int interim = 0; interim < 5; interim++) {
            String line = line(in);
            if (!line.matches("HTTP/1\\.[01] [1-5]\\d\\d( .*)?")) {
                throw new MalformedAnswer("the answer does not start with an HTTP/1.1 status line");
            }
            int status = Integer.parseInt(line.substring(9, 12));
            if (status >= 200) {
                return status;
            }
            headers(in);
        }
        throw new MalformedAnswer("more than five interim (1xx) answers");
    }

    /** The header fields that say how the body is framed, lower-cased names to values. */
    private static Map<String, String> headers(InputStream in) throws IOException {
        var framing = new HashMap<String, String>();
        int bytes = 0;
        for (String line; !(line = line(in)).isEmpty(); ) {
            bytes += line.length() + 2;
            if (bytes > MAX_HEADER_BYTES) {
                throw new MalformedAnswer("the answer's header is over " + MAX_HEADER_BYTES + " bytes");
            }
            int colon = line.indexOf(':');
            if (colon > 0) {
                String name = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
                if (name.equals("content-length") || name.equals("transfer-encoding")) {
                    framing.put(name, line.substring(colon + 1).strip().toLowerCase(Locale.ROOT));
                }
            }
        }
        return framing;
    }

    /** At most {@link #RESPONSE_EXCERPT} bytes of the body, chunked or not. */
    private static String excerpt(InputStream in, Map<String, String> framing) throws IOException {
        var body = new ByteArrayOutputStream();
        if (framing.getOrDefault("transfer-encoding", "").contains("chunked")) {
            while (body.size() < RESPONSE_EXCERPT) {
                String size = line(in);
                int semicolon = size.indexOf(';');
                int length;
                try {
                    length = Integer.parseInt((semicolon < 0 ? size : size.substring(0, semicolon)).strip(), 16);
                } catch (NumberFormatException e) {
                    break;
                }
                if (length <= 0) {
                    break;
                }
                int take = Math.min(length, RESPONSE_EXCERPT - body.size());
                body.write(in.readNBytes(take));
                if (take < length) {
                    break; // the excerpt is full: the rest is never read
                }
                line(in); // the chunk's CRLF
            }
        } else {
            long declared = parseLength(framing.get("content-length"));
            body.write(in.readNBytes((int) Math.min(declared < 0 ? RESPONSE_EXCERPT : declared, RESPONSE_EXCERPT)));
        }
        return body.toString(StandardCharsets.UTF_8);
    }

    private static long parseLength(String value) {
        try {
            return value == null ? -1 : Long.parseLong(value);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** One CRLF- (or LF-) terminated line of at most 8 KiB, as ISO-8859-1. */
    private static String line(InputStream in) throws IOException {
        var line = new StringBuilder(64);
        for (int c; (c = in.read()) != '\n'; ) {
            if (c < 0) {
                throw new MalformedAnswer("the connection closed before the answer was complete");
            }
            if (line.length() >= 8192) {
                throw new MalformedAnswer("a line of the answer is over 8 KiB");
            }
            line.append((char) c);
        }
        int end = line.length();
        return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
    }

    private String describe(IOException e, long deadline) {
        if (Ticker.SYSTEM.nanos() - deadline >= 0) {
            return "timeout: no complete answer within " + timeout.toMillis() + " ms";
        }
        return switch (e) {
            case MalformedAnswer m -> "malformed answer: " + m.getMessage();
            case ConnectException c -> "connection failed: " + c.getMessage();
            case SSLException s -> "TLS failed: " + s.getMessage();
            case SocketTimeoutException t -> "timeout: " + t.getMessage();
            default ->
                "connection failed: " + e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : ": " + e.getMessage());
        };
    }

    private static boolean isAddressLiteral(String host) {
        return host.contains(":") || host.matches("\\d{1,3}(\\.\\d{1,3}){3}");
    }

    private static long millisSince(long startedNanos) {
        return (Ticker.SYSTEM.nanos() - startedNanos) / 1_000_000;
    }

    /** An answer that is not HTTP/1.1 as a webhook receiver should give it. */
    private static final class MalformedAnswer extends IOException {
        MalformedAnswer(String message) {
            super(message);
        }
    }
}
