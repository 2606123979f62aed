package dev.scorecast.server.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One delivery attempt against real receivers on 127.0.0.1 (the JDK's HTTP and HTTPS servers): the
 * connection goes to the address the check saw (a name is resolved once, at delivery), redirects are
 * not followed, an endless answer is cut at 1 KiB, a silent receiver at the deadline, and TLS checks
 * the certificate against the URL's name.
 */
class SenderTest {
    private static final byte[] BODY = "{\"id\":\"evt_test\"}".getBytes(StandardCharsets.UTF_8);
    /** The deadline under test (the silent receiver is cut at it). */
    private static final Duration TIMEOUT = Duration.ofMillis(800);
    /**
     * The deadline of the attempts whose point is something else (the address, the Host, the certificate): only a
     * guard against a hang. It was the 800 ms under test, and the first TLS handshake of the JVM (both ends in it, cold)
     * missed it on a loaded machine: 10 of 10 runs at load 22-28 on 2 cores; the handshake took 2.8-3.9 s there.
     */
    private static final Duration HANG_GUARD = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    /** A resolver with a table: names in it resolve to their addresses (in turn, for a list of answers), others do not. */
    private static final class Table implements AddressGuard.Resolver {
        private final Map<String, List<String>> answers;
        private final Map<String, AtomicInteger> asked = new ConcurrentHashMap<>();

        Table(Map<String, List<String>> answers) {
            this.answers = answers;
        }

        @Override
        public List<InetAddress> resolve(String host) throws UnknownHostException {
            List<String> list = answers.get(host);
            if (list == null) {
                throw new UnknownHostException(host);
            }
            int n = asked.computeIfAbsent(host, h -> new AtomicInteger()).getAndIncrement();
            var addresses = new ArrayList<InetAddress>();
            for (String address :
                    list.get(Math.min(n, list.size() - 1)).split("\\|")) { // "a|b": a name with two addresses
                addresses.add(InetAddress.getByName(address));
            }
            return addresses;
        }

        int asked(String host) {
            return asked.getOrDefault(host, new AtomicInteger()).get();
        }
    }

    private static Sender sender(boolean allowLocal, AddressGuard.Resolver resolver) throws Exception {
        return sender(allowLocal, resolver, HANG_GUARD);
    }

    private static Sender sender(boolean allowLocal, AddressGuard.Resolver resolver, Duration timeout)
            throws Exception {
        return new Sender(
                new AddressGuard(allowLocal), resolver, SSLContext.getDefault().getSocketFactory(), timeout);
    }

    @Test
    void connectsToTheAddressTheNameResolvedToOnceAndSendsTheNameAsHost() throws Exception {
        try (Receiver receiver = Receiver.start().answer(204)) {
            var dns = new Table(Map.of("hooks.example", List.of("127.0.0.1")));
            Attempt attempt = sender(true, dns)
                    .post(
                            "http://hooks.example:" + receiver.port() + "/in?x=1",
                            Map.of("Scorecast-Signature", "t=1,v1=ab"),
                            BODY);
            assertEquals(204, attempt.statusCode(), attempt::toString);
            assertTrue(attempt.delivered());
            Receiver.Received got = receiver.next(Duration.ofSeconds(5));
            assertEquals("POST", got.method());
            assertEquals("/in?x=1", got.path());
            assertEquals("hooks.example:" + receiver.port(), got.header("Host"));
            assertEquals("application/json", got.header("Content-Type"));
            assertEquals("t=1,v1=ab", got.header("Scorecast-Signature"));
            assertEquals("{\"id\":\"evt_test\"}", got.text());
            assertEquals(1, dns.asked("hooks.example"), "looked up once, and that address used");

            // A name with two addresses: nothing listens on the first, so the second (also checked) takes it.
            var dual = new Table(Map.of("dual.example", List.of("127.0.0.2|127.0.0.1")));
            Attempt second = sender(true, dual).post("http://dual.example:" + receiver.port() + "/", Map.of(), BODY);
            assertEquals(204, second.statusCode(), second::toString);
            var mixed = new Table(Map.of("mixed.example", List.of("127.0.0.1|169.254.169.254")));
            assertTrue(
                    sender(true, mixed)
                            .post("http://mixed.example:" + receiver.port() + "/", Map.of(), BODY)
                            .error()
                            .startsWith("refused:"),
                    "one refused address refuses the name, even when another would do");
            assertEquals(1, receiver.all().size() - 1, "only the dual name's delivery arrived");
        }
    }

    @Test
    void aNameThatResolvesToARefusedAddressAtDeliveryIsNeverConnectedTo() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            int port = listener.getLocalPort();
            // Registered while the name pointed at a public address; it points at the metadata address, then at
            // loopback, by delivery.
            var dns = new Table(Map.of("rebind.example", List.of("93.184.216.34", "169.254.169.254", "127.0.0.1")));
            var guard = new AddressGuard(false);
            Endpoint.parse("https://rebind.example:" + port + "/", false, "url").resolve(dns, guard);
            Sender strict = new Sender(guard, dns, SSLContext.getDefault().getSocketFactory(), HANG_GUARD);
            Attempt metadata = strict.post("https://rebind.example:" + port + "/", Map.of(), BODY);
            assertNull(metadata.statusCode());
            assertTrue(
                    metadata.error().startsWith("refused:") && metadata.error().contains("169.254.169.254"),
                    metadata.error());
            Attempt loopback = strict.post("https://rebind.example:" + port + "/", Map.of(), BODY);
            assertTrue(
                    loopback.error().startsWith("refused:") && loopback.error().contains("loopback"), loopback.error());
            // Even for local development, a name leading to the metadata service is refused.
            Attempt local = new Sender(
                            new AddressGuard(true),
                            new Table(Map.of("md.example", List.of("169.254.169.254"))),
                            SSLContext.getDefault().getSocketFactory(),
                            HANG_GUARD)
                    .post("http://md.example/latest/meta-data/", Map.of(), BODY);
            assertTrue(local.error().startsWith("refused:"), local.error());
            listener.setSoTimeout(200);
            try {
                listener.accept().close();
                throw new AssertionError("a refused delivery connected");
            } catch (SocketTimeoutException expected) {
                // nothing connected
            }
        }
    }

    @Test
    void redirectsAreNotFollowedAndAnEndlessAnswerIsReadOnlyToItsFirstKilobyte() throws Exception {
        List<String> hits = new CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", exchange -> {
            hits.add(exchange.getRequestURI().getPath());
            exchange.getRequestBody().readAllBytes();
            switch (exchange.getRequestURI().getPath()) {
                case "/moved" -> {
                    exchange.getResponseHeaders()
                            .add(
                                    "Location",
                                    "http://127.0.0.1:" + server.getAddress().getPort() + "/elsewhere");
                    exchange.sendResponseHeaders(307, -1);
                }
                case "/endless" -> {
                    exchange.sendResponseHeaders(200, 0); // chunked, and it never ends on its own
                    byte[] block = "x".repeat(8192).getBytes(StandardCharsets.US_ASCII);
                    try (OutputStream out = exchange.getResponseBody()) {
                        for (int i = 0; i < 100_000; i++) {
                            out.write(block);
                        }
                    } catch (IOException gone) {
                        // the sender stopped reading, as it should
                    }
                }
                case "/silent" -> {
                    try {
                        Thread.sleep(5000);
                    } catch (InterruptedException ignored) {
                        Thread.currentThread().interrupt();
                    }
                    exchange.sendResponseHeaders(200, -1);
                }
                default -> exchange.sendResponseHeaders(200, -1);
            }
            exchange.close();
        });
        server.start();
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            Sender sender = sender(true, AddressGuard.Resolver.SYSTEM, TIMEOUT);
            Attempt moved = sender.post(base + "/moved", Map.of(), BODY);
            assertEquals(307, moved.statusCode());
            assertTrue(!moved.delivered(), "a redirect is a failed attempt");
            assertEquals(List.of("/moved"), hits, "the Location was never followed");

            long started = System.nanoTime();
            Attempt endless = sender.post(base + "/endless", Map.of(), BODY);
            long millis = (System.nanoTime() - started) / 1_000_000;
            assertEquals(200, endless.statusCode());
            assertEquals(Sender.RESPONSE_EXCERPT, endless.response().length(), "the answer's body is cut at 1 KiB");
            assertTrue(millis < TIMEOUT.toMillis(), "read no further than the excerpt: " + millis + " ms");

            started = System.nanoTime();
            Attempt silent = sender.post(base + "/silent", Map.of(), BODY);
            millis = (System.nanoTime() - started) / 1_000_000;
            assertNull(silent.statusCode());
            assertTrue(silent.error().startsWith("timeout"), silent.error());
            assertTrue(
                    millis >= TIMEOUT.toMillis() - 50 && millis < TIMEOUT.toMillis() + 1000,
                    "cut at the deadline: " + millis + " ms");

            int closed;
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                closed = s.getLocalPort();
            }
            Attempt refused = sender.post("http://127.0.0.1:" + closed + "/", Map.of(), BODY);
            assertTrue(refused.error().startsWith("connection failed"), refused.error());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void httpsChecksTheCertificateAgainstTheUrlsName() throws Exception {
        Path store = dir.resolve("hooks.p12");
        Process keytool = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "keytool")
                                .toString(),
                        "-genkeypair",
                        "-alias",
                        "hook",
                        "-keyalg",
                        "EC",
                        "-groupname",
                        "secp256r1",
                        "-dname",
                        "CN=hooks.test",
                        "-ext",
                        "SAN=dns:hooks.test",
                        "-validity",
                        "2",
                        "-keystore",
                        store.toString(),
                        "-storetype",
                        "PKCS12",
                        "-storepass",
                        "changeit")
                .redirectErrorStream(true)
                .start();
        String out = new String(keytool.getInputStream().readAllBytes());
        assertEquals(0, keytool.waitFor(), out);
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (var in = new FileInputStream(store.toFile())) {
            keys.load(in, "changeit".toCharArray());
        }
        var keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keys, "changeit".toCharArray());
        SSLContext serverTls = SSLContext.getInstance("TLS");
        serverTls.init(keyManagers.getKeyManagers(), null, null);
        var trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(keys);
        SSLContext clientTls = SSLContext.getInstance("TLS");
        clientTls.init(null, trust.getTrustManagers(), null);
        SSLSocketFactory trusting = clientTls.getSocketFactory();

        List<String> sni = new CopyOnWriteArrayList<>();
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(serverTls));
        server.createContext("/", exchange -> {
            sni.add(exchange.getRequestHeaders().getFirst("Host"));
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
        try {
            int port = server.getAddress().getPort();
            var dns = new Table(Map.of("hooks.test", List.of("127.0.0.1"), "other.test", List.of("127.0.0.1")));
            var guard = new AddressGuard(true);
            Attempt ok = new Sender(guard, dns, trusting, HANG_GUARD)
                    .post("https://hooks.test:" + port + "/", Map.of(), BODY);
            assertEquals(200, ok.statusCode(), ok::toString);
            assertEquals(List.of("hooks.test:" + port), sni);
            Attempt wrongName = new Sender(guard, dns, trusting, HANG_GUARD)
                    .post("https://other.test:" + port + "/", Map.of(), BODY);
            assertTrue(wrongName.error() != null && wrongName.error().startsWith("TLS failed"), wrongName::toString);
            Attempt untrusted = new Sender(guard, dns, SSLContext.getDefault().getSocketFactory(), HANG_GUARD)
                    .post("https://hooks.test:" + port + "/", Map.of(), BODY);
            assertTrue(untrusted.error() != null && untrusted.error().startsWith("TLS failed"), untrusted::toString);
        } finally {
            server.stop(0);
        }
    }
}
